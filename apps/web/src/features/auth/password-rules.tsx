import { Check, Circle } from 'lucide-react';
import type { PasswordRule } from './credentials';
import { cn } from '../../ui/cn';

/** The inline password rules under the field. */
export function PasswordRules({ id, rules }: { id: string; rules: readonly PasswordRule[] }) {
  return (
    <ul id={id} className="grid gap-1 text-xs">
      {rules.map((rule) => (
        <li key={rule.label} className={cn('flex items-center gap-1.5', rule.met ? 'text-success' : 'text-muted-foreground')}>
          {rule.met ? <Check className="size-3.5" aria-hidden /> : <Circle className="size-3.5" aria-hidden />}
          {rule.label}
          <span className="sr-only">{rule.met ? '(done)' : '(not yet)'}</span>
        </li>
      ))}
    </ul>
  );
}
