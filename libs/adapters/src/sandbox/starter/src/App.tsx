export function App() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: '3rem', maxWidth: 640, margin: '0 auto' }}>
      <h1>Welcome to your Kiln app</h1>
      <p>Describe what you want to build and Kiln will write it here.</p>
    </main>
  );
}
