// Kiln's own small UI kit: Radix primitives and plain elements, styled with the design tokens.
export * from './alert';
export * from './badge';
export * from './button';
export * from './card';
export * from './dialog';
export * from './cn';
export * from './input';
export * from './label';
export * from './logo';
export * from './progress';
export * from './segmented-control';
export * from './skeleton';
export * from './spinner';
export * from './tabs';
export * from './toast';
export * from './tooltip';
