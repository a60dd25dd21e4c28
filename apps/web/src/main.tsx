import 'reflect-metadata';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { createContainer } from './container';
import { ReferralCapture } from './features/referral-capture/referral-capture';
import { RouterNavigator } from './routes/navigator';
import { routes } from './routes/routes';
import { ContainerContext } from './use-vm';

const rootElement = document.getElementById('root');
if (rootElement === null) throw new Error('index.html has no #root element');

const container = createContainer();

// SPEC §2: a ?ref=CODE on the landing URL is kept locally and removed from the address
// before the router reads it.
const withoutRef = container.get(ReferralCapture).capture(window.location.href);
if (withoutRef !== null) window.history.replaceState(window.history.state, '', withoutRef);

const router = createBrowserRouter(routes);
container.get(RouterNavigator).attach(router);

createRoot(rootElement).render(
  <StrictMode>
    <ContainerContext value={container}>
      <RouterProvider router={router} />
    </ContainerContext>
  </StrictMode>,
);
