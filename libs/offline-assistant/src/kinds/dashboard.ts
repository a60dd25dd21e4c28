import { str } from '../code.js';
import type { KindBlueprint, KindContext } from './kind.js';

const UNITS: Readonly<Record<string, string>> = {
  coffee: 'Cups sold',
  food: 'Covers',
  fitness: 'Check-ins',
  software: 'Sign-ups',
  creative: 'Enquiries',
  travel: 'Bookings',
  education: 'Enrolments',
};

/** A small deterministic sequence (a linear congruential generator) from the prompt's seed. */
function sequence(seed: number, count: number, min: number, max: number): number[] {
  let state = seed % 2147483647 || 1;
  const out: number[] = [];
  for (let i = 0; i < count; i += 1) {
    state = (state * 48271) % 2147483647;
    out.push(min + (state % (max - min + 1)));
  }
  return out;
}

const CUSTOMERS = ['Olivia Park', 'Liam Chen', 'Emma Davis', 'Noah Kim', 'Ava Lopez', 'Lucas Meyer', 'Mia Rossi', 'Ethan Brown'];
const STATUSES = ['Paid', 'Paid', 'Pending', 'Paid', 'Refunded', 'Paid', 'Pending', 'Paid'];

export function dashboard({ spec, topic }: KindContext): KindBlueprint {
  const unit = UNITS[topic.id] ?? 'Orders';
  const week = sequence(spec.seed + 7, 7, 40, 120);
  const month = sequence(spec.seed + 30, 4, 300, 700);
  const year = sequence(spec.seed + 365, 12, 1200, 3000);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const changes = sequence(spec.seed + 3, 9, -8, 24);
  const avg = 18 + (spec.seed % 30);
  const metric = (range: number[], i: number) => {
    const count = sum(range);
    return `    { label: ${str(unit)}, value: ${str(count.toLocaleString('en-US'))}, change: ${changes[i]} },
    { label: 'Revenue', value: ${str('$' + (count * avg).toLocaleString('en-US'))}, change: ${changes[i + 1]} },
    { label: 'New customers', value: ${str(Math.round(count / 6).toLocaleString('en-US'))}, change: ${changes[i + 2]} },
    { label: 'Avg. order', value: ${str('$' + avg + '.00')}, change: 0 },`;
  };
  const items = topic.tiers.map(([name]) => `${name}`);
  const totals = sequence(spec.seed + 99, 8, 12, 240);
  const data = `export type Range = '7d' | '4w' | '12m';

export interface Metric {
  label: string;
  value: string;
  /** Change against the previous period, in percent. */
  change: number;
}

export interface Point {
  label: string;
  value: number;
}

export type OrderStatus = 'Paid' | 'Pending' | 'Refunded';

export interface Order {
  id: string;
  customer: string;
  item: string;
  total: number;
  status: OrderStatus;
}

export const ranges: { id: Range; label: string }[] = [
  { id: '7d', label: 'Last 7 days' },
  { id: '4w', label: 'Last 4 weeks' },
  { id: '12m', label: 'Last 12 months' },
];

export const metrics: Record<Range, Metric[]> = {
  '7d': [
${metric(week, 0)}
  ],
  '4w': [
${metric(month, 3)}
  ],
  '12m': [
${metric(year, 6)}
  ],
};

export const series: Record<Range, Point[]> = {
  '7d': [${['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].map((d, i) => `{ label: '${d}', value: ${week[i]} }`).join(', ')}],
  '4w': [${month.map((v, i) => `{ label: 'Week ${i + 1}', value: ${v} }`).join(', ')}],
  '12m': [${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'].map((m, i) => `{ label: '${m}', value: ${year[i]} }`).join(', ')}],
};

export const orders: Order[] = [
${CUSTOMERS.slice(0, 6)
  .map((c, i) => `  { id: '#${1040 + i * 7}', customer: ${str(c)}, item: ${str(items[i % items.length] + ' plan')}, total: ${totals[i]}, status: '${STATUSES[i]}' },`)
  .join('\n')}
];
`;
  const overview = `import { useState } from 'react';
import { metrics, ranges, series, type Range } from '../dashboard-data';
import { BarChart } from './BarChart';
import './Dashboard.css';

export function Overview() {
  const [range, setRange] = useState<Range>('7d');
  const current = ranges.find((r) => r.id === range) ?? ranges[0];

  return (
    <section className="section dashboard-section" id="overview">
      <div className="wrap">
        <div className="dashboard-toolbar">
          <h2>Overview</h2>
          <div className="chips" role="group" aria-label="Period">
            {ranges.map((r) => (
              <button key={r.id} type="button" className="chip" aria-pressed={range === r.id} onClick={() => setRange(r.id)}>
                {r.label}
              </button>
            ))}
          </div>
        </div>
        <div className="grid metric-grid">
          {metrics[range].map((metric) => (
            <article className="card metric" key={metric.label}>
              <p className="muted metric-label">{metric.label}</p>
              <p className="metric-value">{metric.value}</p>
              <p className={metric.change >= 0 ? 'metric-change up' : 'metric-change down'}>
                {metric.change >= 0 ? '▲' : '▼'} {Math.abs(metric.change)}% vs previous period
              </p>
            </article>
          ))}
        </div>
        <article className="card chart-card">
          <h3>${unit.replace(/[{}<>]/g, '')} · {current.label.toLowerCase()}</h3>
          <BarChart data={series[range]} />
        </article>
      </div>
    </section>
  );
}
`;
  const chart = `import type { Point } from '../dashboard-data';

export function BarChart({ data }: { data: Point[] }) {
  const max = Math.max(1, ...data.map((point) => point.value));
  return (
    <div className="bar-chart" role="img" aria-label={data.map((point) => point.label + ': ' + point.value).join(', ')}>
      {data.map((point) => (
        <div className="bar-column" key={point.label}>
          <span className="bar-value">{point.value.toLocaleString('en-US')}</span>
          <div className="bar" style={{ height: (point.value / max) * 100 + '%' }} />
          <span className="bar-label">{point.label}</span>
        </div>
      ))}
    </div>
  );
}
`;
  const recent = `import { orders, type OrderStatus } from '../dashboard-data';

const statusClass: Record<OrderStatus, string> = {
  Paid: 'status status-paid',
  Pending: 'status status-pending',
  Refunded: 'status status-refunded',
};

export function RecentOrders() {
  return (
    <section className="section dashboard-section" id="orders">
      <div className="wrap">
        <article className="card">
          <h3>Recent orders</h3>
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Order</th>
                  <th scope="col">Customer</th>
                  <th scope="col">Item</th>
                  <th scope="col">Total</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {orders.map((order) => (
                  <tr key={order.id}>
                    <td>{order.id}</td>
                    <td>{order.customer}</td>
                    <td>{order.item}</td>
                    <td>{'$' + order.total.toFixed(2)}</td>
                    <td>
                      <span className={statusClass[order.status]}>{order.status}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </article>
      </div>
    </section>
  );
}
`;
  const css = `.dashboard-section {
  padding: 1.5rem 0;
}

.dashboard-toolbar {
  display: flex;
  justify-content: space-between;
  align-items: center;
  gap: 1rem;
  flex-wrap: wrap;
  margin-bottom: 1rem;
}

.dashboard-toolbar h2 {
  margin: 0;
  font-size: 1.4rem;
}

.dashboard-toolbar .chips {
  margin: 0;
}

.metric-grid {
  grid-template-columns: repeat(auto-fit, minmax(min(200px, 100%), 1fr));
}

.metric p {
  margin: 0;
}

.metric-label {
  font-size: 0.9rem;
}

.metric-value {
  font-size: 1.9rem;
  font-weight: 800;
  letter-spacing: -0.03em;
}

.metric-change {
  font-size: 0.85rem;
  font-weight: 600;
}

.metric-change.up {
  color: var(--success, #16a34a);
}

.metric-change.down {
  color: var(--destructive);
}

.chart-card {
  margin-top: 1.25rem;
}

.bar-chart {
  display: flex;
  align-items: flex-end;
  gap: 0.5rem;
  height: 240px;
  padding-top: 1.5rem;
}

.bar-column {
  flex: 1;
  height: 100%;
  display: flex;
  flex-direction: column;
  justify-content: flex-end;
  align-items: center;
  gap: 0.35rem;
  min-width: 0;
}

.bar {
  width: 100%;
  max-width: 3rem;
  border-radius: calc(var(--radius) * 0.5) calc(var(--radius) * 0.5) 4px 4px;
  background: linear-gradient(180deg, var(--primary), color-mix(in srgb, var(--primary) 60%, var(--card)));
  min-height: 4px;
}

.bar-value,
.bar-label {
  font-size: 0.75rem;
  color: var(--muted-foreground);
  white-space: nowrap;
}

.status {
  display: inline-block;
  padding: 0.15rem 0.6rem;
  border-radius: 999px;
  font-size: 0.8rem;
  font-weight: 600;
}

.status-paid {
  background: color-mix(in srgb, var(--success, #16a34a) 15%, var(--card));
  color: var(--success, #16a34a);
}

.status-pending {
  background: color-mix(in srgb, #d97706 15%, var(--card));
  color: #b45309;
}

.status-refunded {
  background: color-mix(in srgb, var(--destructive) 12%, var(--card));
  color: var(--destructive);
}

@media (max-width: 640px) {
  .bar-value {
    display: none;
  }
}
`;
  return {
    main: [
      { name: 'Overview', path: 'src/components/Overview.tsx', content: overview },
      { name: 'RecentOrders', path: 'src/components/RecentOrders.tsx', content: recent },
    ],
    support: { 'src/dashboard-data.ts': data, 'src/components/BarChart.tsx': chart, 'src/components/Dashboard.css': css },
    coreSections: [],
    hero: 'compact',
    links: [
      { href: '#overview', label: 'Overview' },
      { href: '#orders', label: 'Orders' },
    ],
    coreTask: { title: 'Build the dashboard', description: `Key numbers with period switch (7 days, 4 weeks, 12 months), a bar chart of ${unit.toLowerCase()} and a table of recent orders.` },
  };
}
