import { index, type RouteConfig, route } from '@react-router/dev/routes';

/** The route table of spec §2; later issues add the remaining screens here. */
export default [
  index('routes/home.tsx'),
  route('category/:categoryId', 'routes/category.tsx'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
