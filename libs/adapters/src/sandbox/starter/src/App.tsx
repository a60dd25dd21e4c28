import { Sparkles } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';

export function App() {
  const [count, setCount] = useState(0);

  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <div className="bg-card text-card-foreground w-full max-w-lg rounded-xl border p-8 text-center shadow-sm sm:p-10">
        <div className="bg-secondary mx-auto mb-6 flex size-12 items-center justify-center rounded-full">
          <Sparkles className="size-6" aria-hidden="true" />
        </div>
        <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">Welcome to your Kiln app</h1>
        <p className="text-muted-foreground mt-3 text-base">
          Describe what you want to build and Kiln will write it here.
        </p>
        <div className="mt-8 flex justify-center">
          <Button variant="outline" onClick={() => setCount((c) => c + 1)}>
            Clicked {count} {count === 1 ? 'time' : 'times'}
          </Button>
        </div>
      </div>
    </main>
  );
}
