import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { Alert } from '../../ui/alert';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { SegmentedControl } from '../../ui/segmented-control';
import { Skeleton } from '../../ui/skeleton';
import { cn } from '../../ui/cn';
import { useVm } from '../../use-vm';
import { ACTIVITY_SERIES } from './activity-chart';
import { ACTIVITY_RANGES, type ActivityRange, SiteActivityVm } from './site-activity.vm';

const RANGE_OPTIONS = ACTIVITY_RANGES.map((days) => ({ value: String(days) as `${ActivityRange}`, label: `${days} days` }));

/** /operators/activity: Kiln's own numbers for the people in OPERATOR_EMAILS. */
export const SiteActivityView = observer(function SiteActivityView() {
  const vm = useVm(SiteActivityVm);
  useEffect(() => {
    void vm.load();
  }, [vm]);

  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6 sm:py-14">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-semibold tracking-tight">Site activity</h1>
          <p className="mt-2 text-muted-foreground">Daily page views, sign-ups and prompts (UTC days).</p>
        </div>
        <SegmentedControl label="Range" options={RANGE_OPTIONS} value={String(vm.range) as `${ActivityRange}`} onChange={(v) => void vm.load(Number(v) as ActivityRange)} />
      </header>
      <div className="mt-8">
        {vm.status === 'forbidden' && <Alert tone="destructive" title="This page is for Kiln operators." />}
        {vm.status === 'error' && <Alert tone="destructive" title="Site activity could not be loaded. Please try again." action={<Button variant="outline" onClick={() => void vm.load()}>Retry</Button>} />}
        {vm.status === 'loading' && <Skeleton className="h-72 w-full" />}
        {vm.status === 'ready' && <ActivityCard vm={vm} />}
      </div>
    </div>
  );
});

/** The loaded numbers; gets the page's view-model (view-models are transient: useVm here would make a new, empty one). */
const ActivityCard = observer(function ActivityCard({ vm }: { vm: SiteActivityVm }) {
  const { chart, days, totals } = vm;
  const first = days[0]?.day ?? '';
  const last = days.at(-1)?.day ?? '';
  return (
    <Card>
      <CardHeader>
        <CardTitle>Last {vm.range} days</CardTitle>
        <CardDescription>
          {first} – {last}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="mb-4 flex flex-wrap gap-x-6 gap-y-2 text-sm" aria-label="Totals">
          {ACTIVITY_SERIES.map((s) => (
            <li key={s.key} className="flex items-center gap-2">
              <span aria-hidden className={cn('inline-block size-2.5 rounded-full bg-current', s.colorClass)} />
              <span className="text-muted-foreground">{s.label}</span>
              <span className="font-medium tabular-nums" data-testid={`total-${s.key}`}>
                {totals[s.key]}
              </span>
            </li>
          ))}
        </ul>
        <figure>
          <svg viewBox={`-8 -8 ${chart.width + 16} ${chart.height + 16}`} className="h-56 w-full" preserveAspectRatio="none" role="img" aria-label={`Daily activity chart, top of scale ${chart.top}`}>
            <line x1={0} y1={chart.height} x2={chart.width} y2={chart.height} className="stroke-border" strokeWidth={1} vectorEffect="non-scaling-stroke" />
            <line x1={0} y1={0} x2={chart.width} y2={0} className="stroke-border" strokeDasharray="4 4" strokeWidth={1} vectorEffect="non-scaling-stroke" />
            {chart.lines.map((line) => (
              <polyline
                key={line.key}
                points={line.points}
                fill="none"
                stroke="currentColor"
                strokeWidth={2}
                strokeLinejoin="round"
                vectorEffect="non-scaling-stroke"
                className={ACTIVITY_SERIES.find((s) => s.key === line.key)?.colorClass}
              />
            ))}
          </svg>
          <figcaption className="mt-1 flex justify-between text-xs text-muted-foreground">
            <span>{first}</span>
            <span>top: {chart.top}</span>
            <span>{last}</span>
          </figcaption>
        </figure>
        <details className="mt-6 text-sm">
          <summary className="cursor-pointer text-muted-foreground">Numbers by day</summary>
          <table className="mt-3 w-full text-left tabular-nums">
            <thead>
              <tr className="text-muted-foreground">
                <th className="py-1 font-medium">Day</th>
                {ACTIVITY_SERIES.map((s) => (
                  <th key={s.key} className="py-1 font-medium">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {[...days].reverse().map((d) => (
                <tr key={d.day} className="border-t border-border">
                  <td className="py-1">{d.day}</td>
                  <td className="py-1">{d.page_views}</td>
                  <td className="py-1">{d.signups}</td>
                  <td className="py-1">{d.prompts}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </CardContent>
    </Card>
  );
});
