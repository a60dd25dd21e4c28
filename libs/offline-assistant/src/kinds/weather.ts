import { hashText, str, titleCase } from '../code.js';
import type { KindBlueprint, KindContext } from './kind.js';

type Condition = 'Sunny' | 'Partly cloudy' | 'Cloudy' | 'Rain' | 'Storm' | 'Snow';
const CONDITIONS: readonly Condition[] = ['Sunny', 'Partly cloudy', 'Cloudy', 'Rain', 'Storm', 'Snow'];

interface City {
  name: string;
  country: string;
  temp: number;
  condition: Condition;
  humidity: number;
  wind: number;
  forecast: { day: string; high: number; low: number; condition: Condition }[];
}

const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'];

function cityFrom(name: string, country: string, seed: number): City {
  const base = 4 + (seed % 26);
  const pick = (n: number): Condition => {
    const c = CONDITIONS[(seed >>> n) % CONDITIONS.length] as Condition;
    return c === 'Snow' && base > 8 ? 'Cloudy' : c;
  };
  return {
    name,
    country,
    temp: base,
    condition: pick(0),
    humidity: 35 + ((seed >>> 3) % 55),
    wind: 5 + ((seed >>> 5) % 30),
    forecast: DAYS.map((day, i) => {
      const high = base + (((seed >>> (i * 2)) % 7) - 3);
      return { day, high, low: high - 4 - ((seed >>> (i + 1)) % 5), condition: pick(i + 4) };
    }),
  };
}

const DEFAULT_CITIES: readonly [string, string][] = [
  ['Lisbon', 'Portugal'],
  ['Oslo', 'Norway'],
  ['Tokyo', 'Japan'],
  ['New York', 'United States'],
  ['Cape Town', 'South Africa'],
];

export function weather({ spec }: KindContext): KindBlueprint {
  const requested = spec.subject && spec.subject.split(' ').length <= 3 && !/\b(app|widget|weather|my|city|cities)\b/.test(spec.subject) ? titleCase(spec.subject) : null;
  const list = requested ? [[requested, ''] as [string, string], ...DEFAULT_CITIES.filter(([n]) => n !== requested).slice(0, 4)] : DEFAULT_CITIES;
  const cities = list.map(([name, country]) => cityFrom(name, country, hashText(name)));
  const data = `export type Condition = ${CONDITIONS.map((c) => str(c)).join(' | ')};

export interface DayForecast {
  day: string;
  high: number;
  low: number;
  condition: Condition;
}

export interface CityWeather {
  name: string;
  country: string;
  /** °C */
  temp: number;
  condition: Condition;
  /** % */
  humidity: number;
  /** km/h */
  wind: number;
  forecast: DayForecast[];
}

export type Unit = 'C' | 'F';

export const icons: Record<Condition, string> = {
  Sunny: '☀️',
  'Partly cloudy': '⛅',
  Cloudy: '☁️',
  Rain: '🌧️',
  Storm: '⛈️',
  Snow: '❄️',
};

/** Sample data: connect a weather API to show live conditions. */
export const cities: CityWeather[] = [
${cities
  .map(
    (c) => `  {
    name: ${str(c.name)},
    country: ${str(c.country)},
    temp: ${c.temp},
    condition: ${str(c.condition)},
    humidity: ${c.humidity},
    wind: ${c.wind},
    forecast: [
${c.forecast.map((f) => `      { day: '${f.day}', high: ${f.high}, low: ${f.low}, condition: ${str(f.condition)} },`).join('\n')}
    ],
  },`,
  )
  .join('\n')}
];

export function toUnit(celsius: number, unit: Unit): number {
  return unit === 'C' ? celsius : Math.round((celsius * 9) / 5 + 32);
}
`;
  const component = `import { useState } from 'react';
import { cities, icons, toUnit, type Unit } from '../weather';
import './Weather.css';

export function Weather() {
  const [cityName, setCityName] = useState(cities[0]?.name ?? '');
  const [unit, setUnit] = useState<Unit>('C');
  const city = cities.find((c) => c.name === cityName) ?? cities[0];
  if (!city) return null;

  return (
    <section className="section" id="weather">
      <div className="wrap weather">
        <div className="weather-toolbar">
          <div className="chips" role="group" aria-label="City">
            {cities.map((c) => (
              <button key={c.name} type="button" className="chip" aria-pressed={c.name === city.name} onClick={() => setCityName(c.name)}>
                {c.name}
              </button>
            ))}
          </div>
          <div className="chips unit-toggle" role="group" aria-label="Unit">
            {(['C', 'F'] as const).map((u) => (
              <button key={u} type="button" className="chip" aria-pressed={unit === u} onClick={() => setUnit(u)}>
                °{u}
              </button>
            ))}
          </div>
        </div>
        <article className="card weather-now">
          <div>
            <p className="muted weather-place">
              {city.name}
              {city.country ? ', ' + city.country : ''}
            </p>
            <p className="weather-temp">
              {toUnit(city.temp, unit)}°{unit}
            </p>
            <p className="weather-condition">{city.condition}</p>
          </div>
          <div className="weather-icon" aria-hidden="true">
            {icons[city.condition]}
          </div>
          <dl className="weather-details">
            <div>
              <dt className="muted">Humidity</dt>
              <dd>{city.humidity}%</dd>
            </div>
            <div>
              <dt className="muted">Wind</dt>
              <dd>{city.wind} km/h</dd>
            </div>
          </dl>
        </article>
        <ul className="forecast">
          {city.forecast.map((day) => (
            <li className="card" key={day.day}>
              <span className="muted">{day.day}</span>
              <span className="forecast-icon" role="img" aria-label={day.condition}>
                {icons[day.condition]}
              </span>
              <strong>{toUnit(day.high, unit)}°</strong>
              <span className="muted">{toUnit(day.low, unit)}°</span>
            </li>
          ))}
        </ul>
        <p className="muted weather-note">Sample data — connect a weather API for live forecasts.</p>
      </div>
    </section>
  );
}
`;
  const css = `.weather {
  max-width: 48rem;
}

.weather-toolbar {
  display: flex;
  justify-content: space-between;
  gap: 1rem;
  flex-wrap: wrap;
}

.weather-now {
  display: grid;
  grid-template-columns: 1fr auto;
  gap: 1rem;
  align-items: center;
  background: linear-gradient(135deg, color-mix(in srgb, var(--primary) 18%, var(--card)), var(--card));
}

.weather-now p {
  margin: 0;
}

.weather-place {
  font-weight: 600;
}

.weather-temp {
  font-size: clamp(3rem, 10vw, 4.5rem);
  font-weight: 800;
  letter-spacing: -0.04em;
  line-height: 1.1;
}

.weather-condition {
  font-size: 1.15rem;
}

.weather-icon {
  font-size: clamp(3.5rem, 12vw, 5.5rem);
}

.weather-details {
  grid-column: 1 / -1;
  display: flex;
  gap: 2rem;
  margin: 0;
}

.weather-details dd {
  margin: 0;
  font-weight: 700;
}

.forecast {
  list-style: none;
  padding: 0;
  margin: 1.25rem 0 0;
  display: grid;
  gap: 0.75rem;
  grid-template-columns: repeat(5, minmax(0, 1fr));
}

.forecast li {
  display: grid;
  justify-items: center;
  gap: 0.25rem;
  padding: 1rem 0.5rem;
}

.forecast-icon {
  font-size: 1.75rem;
}

.weather-note {
  font-size: 0.85rem;
  margin-top: 1rem;
}

@media (max-width: 560px) {
  .forecast {
    grid-template-columns: repeat(3, minmax(0, 1fr));
  }
}
`;
  return {
    main: [{ name: 'Weather', path: 'src/components/Weather.tsx', content: component }],
    support: { 'src/weather.ts': data, 'src/components/Weather.css': css },
    coreSections: [],
    hero: 'compact',
    links: [{ href: '#weather', label: 'Forecast' }],
    coreTask: { title: 'Build the weather widget', description: `Current conditions and a five-day forecast for ${cities.map((c) => c.name).join(', ')} (sample data), with a °C/°F switch.` },
  };
}
