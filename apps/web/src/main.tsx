import 'reflect-metadata';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { createContainer } from './container';
import { routes } from './routes/routes';
import { ContainerContext } from './use-vm';

const rootElement = document.getElementById('root');
if (rootElement === null) throw new Error('index.html has no #root element');

const container = createContainer();
const router = createBrowserRouter(routes);

createRoot(rootElement).render(
  <StrictMode>
    <ContainerContext value={container}>
      <RouterProvider router={router} />
    </ContainerContext>
  </StrictMode>,
);
