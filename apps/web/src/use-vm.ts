import type { Container, ServiceIdentifier } from 'inversify';
import { createContext, useContext, useState } from 'react';

/** Carries the composition root to the views; provided once in main.tsx. */
export const ContainerContext = createContext<Container | null>(null);

/** Resolves a view-model from the container once per mounted component. */
export function useVm<T>(id: ServiceIdentifier<T>): T {
  const container = useContext(ContainerContext);
  if (container === null) {
    throw new Error('useVm must be used inside <ContainerContext value={container}>');
  }
  const [vm] = useState(() => container.get(id));
  return vm;
}
