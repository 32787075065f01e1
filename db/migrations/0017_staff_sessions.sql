-- Filled in by the work of issue 21; consolidated before landing.
SELECT 1;
