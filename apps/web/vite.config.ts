import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Vite 8 (oxc) reads experimentalDecorators / emitDecoratorMetadata from tsconfig.json,
// which inversify's constructor injection needs (see NOTES.md).
export default defineConfig({
  plugins: [react()],
});
