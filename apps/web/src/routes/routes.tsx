import type { RouteObject } from 'react-router-dom';
import { HomeView } from '../features/home/home.view';
import { NotFoundView } from './not-found.view';

export const routes: RouteObject[] = [
  { path: '/', element: <HomeView /> },
  { path: '*', element: <NotFoundView /> },
];
