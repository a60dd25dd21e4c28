import { useLocation } from 'react-router-dom';

export function NotFoundView() {
  const { pathname } = useLocation();

  return (
    <main>
      <h1>Page not found: {pathname}</h1>
    </main>
  );
}
