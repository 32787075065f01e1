/*
 * The page's JavaScript is fetched after its first paint. React Router writes
 * `<link rel="modulepreload">` for every module a page needs and one inline module script that
 * imports them and hydrates; the browser fetches all of them at once with the HTML, so on a
 * phone on a slow network 140 kB of JavaScript shares the line with the stylesheet and the
 * HTML the first paint waits for (Lighthouse's slow 4G: first paint 2.1–2.4 s with them, about
 * 1.5 s without). The server writes them inert (entry.server.tsx, deferred-modules.server.ts);
 * this script, inline in the head, brings them back once the page has painted. Every catalogue
 * page works without JavaScript meanwhile: links, the search form and the filter forms are
 * plain HTML.
 */

/** The `rel` the server gives module preloads until the page has painted. */
export const DEFERRED_PRELOAD_REL = 'x-modulepreload';
/** The `type` the server gives React Router's module script until the page has painted. */
export const DEFERRED_MODULE_TYPE = 'x-module';

/**
 * Restores the preloads and the module script, each as a new element (a script only runs when
 * inserted), one frame after DOMContentLoaded, so the browser has painted first. A hidden tab
 * runs no animation frames, so there it waits for nothing. The nonce (or, on a cached page,
 * the script's hash) keeps the restored script inside the page's Content-Security-Policy.
 */
export const RESTORE_DEFERRED_MODULES = `(function(){function go(){document.querySelectorAll('link[rel="${DEFERRED_PRELOAD_REL}"]').forEach(function(l){var n=document.createElement('link');n.rel='modulepreload';n.href=l.getAttribute('href');n.nonce=l.nonce;l.replaceWith(n)});document.querySelectorAll('script[type="${DEFERRED_MODULE_TYPE}"]').forEach(function(s){var n=document.createElement('script');n.type='module';n.nonce=s.nonce;n.textContent=s.textContent;s.replaceWith(n)})}function afterPaint(){if(document.visibilityState==='hidden')setTimeout(go,0);else requestAnimationFrame(function(){setTimeout(go,0)})}if(document.readyState==='loading')document.addEventListener('DOMContentLoaded',afterPaint);else afterPaint()})()`;
