import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// Vite 8 (oxc) reads experimentalDecorators / emitDecoratorMetadata from tsconfig.json,
// which inversify's constructor injection needs (see NOTES.md).

// `npm run dev -w @kiln/web`: the API (npm start, port 3000) answers /api, /auth/v1, /health and /database
// through this proxy, so the browser sees one origin as in production. (/auth/callback is a page
// of the app, so only /auth/v1 goes to the API; /database is the SPEC's DELETE /database/{id}.)
const apiTarget = process.env['KILN_API_URL'] ?? 'http://localhost:3000';
const proxy = Object.fromEntries(['/api', '/auth/v1', '/health', '/database'].map((path) => [path, { target: apiTarget, changeOrigin: false }]));

// The domain's TypeScript sources (ES modules) rather than its CommonJS build: the dev server
// cannot read named exports from CommonJS workspace packages, and the bundle tree-shakes better.
const domainSource = fileURLToPath(new URL('../../libs/domain/src/index.ts', import.meta.url));

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@kiln/domain': domainSource } },
  server: { proxy },
  preview: { proxy },
});
