import type { KindBlueprint } from './kind.js';

const DATA = `export interface Ingredient {
  name: string;
  amount: number;
  unit: string;
}

export interface Recipe {
  id: number;
  title: string;
  category: 'Breakfast' | 'Mains' | 'Soups' | 'Baking';
  minutes: number;
  servings: number;
  ingredients: Ingredient[];
  steps: string[];
}

export const recipes: Recipe[] = [
  {
    id: 1,
    title: 'Fluffy buttermilk pancakes',
    category: 'Breakfast',
    minutes: 25,
    servings: 4,
    ingredients: [
      { name: 'plain flour', amount: 200, unit: 'g' },
      { name: 'buttermilk', amount: 300, unit: 'ml' },
      { name: 'eggs', amount: 2, unit: '' },
      { name: 'baking powder', amount: 2, unit: 'tsp' },
      { name: 'melted butter', amount: 30, unit: 'g' },
    ],
    steps: ['Whisk the flour and baking powder in a bowl.', 'Beat in the eggs, buttermilk and butter until just combined.', 'Cook ladlefuls in a hot pan for 2 minutes a side.', 'Serve warm with fruit and maple syrup.'],
  },
  {
    id: 2,
    title: 'Roasted tomato soup',
    category: 'Soups',
    minutes: 50,
    servings: 4,
    ingredients: [
      { name: 'ripe tomatoes', amount: 1, unit: 'kg' },
      { name: 'red onion', amount: 1, unit: '' },
      { name: 'garlic cloves', amount: 4, unit: '' },
      { name: 'vegetable stock', amount: 500, unit: 'ml' },
      { name: 'olive oil', amount: 3, unit: 'tbsp' },
    ],
    steps: ['Halve the tomatoes and quarter the onion.', 'Roast with garlic and oil at 200 °C for 35 minutes.', 'Blend with the hot stock until smooth.', 'Season and serve with crusty bread.'],
  },
  {
    id: 3,
    title: 'Weeknight vegetable stir-fry',
    category: 'Mains',
    minutes: 20,
    servings: 2,
    ingredients: [
      { name: 'egg noodles', amount: 200, unit: 'g' },
      { name: 'broccoli', amount: 1, unit: 'head' },
      { name: 'red pepper', amount: 1, unit: '' },
      { name: 'soy sauce', amount: 3, unit: 'tbsp' },
      { name: 'fresh ginger', amount: 2, unit: 'cm' },
    ],
    steps: ['Cook the noodles and drain.', 'Stir-fry the vegetables in a hot wok for 4 minutes.', 'Add ginger, soy sauce and the noodles.', 'Toss for a minute and serve straight away.'],
  },
  {
    id: 4,
    title: 'Brown butter chocolate chip cookies',
    category: 'Baking',
    minutes: 40,
    servings: 12,
    ingredients: [
      { name: 'butter', amount: 170, unit: 'g' },
      { name: 'brown sugar', amount: 150, unit: 'g' },
      { name: 'egg', amount: 1, unit: '' },
      { name: 'plain flour', amount: 220, unit: 'g' },
      { name: 'dark chocolate', amount: 150, unit: 'g' },
    ],
    steps: ['Brown the butter and let it cool a little.', 'Beat in the sugar and egg, then fold in the flour.', 'Stir through the chopped chocolate and scoop onto a tray.', 'Bake at 180 °C for 11 minutes.'],
  },
];

export const categories = ['All', 'Breakfast', 'Mains', 'Soups', 'Baking'] as const;

/** An ingredient amount for a different number of servings, rounded sensibly. */
export function scaleAmount(amount: number, from: number, to: number): string {
  const value = (amount * to) / from;
  if (value >= 10) return String(Math.round(value));
  return String(Math.round(value * 4) / 4);
}
`;

const COMPONENT = `import { useState } from 'react';
import { categories, recipes, scaleAmount, type Recipe } from '../recipes';
import './Recipes.css';

function RecipeDetail({ recipe, onBack }: { recipe: Recipe; onBack: () => void }) {
  const [servings, setServings] = useState(recipe.servings);
  const [done, setDone] = useState<number[]>([]);

  function toggle(index: number) {
    setDone((current) => (current.includes(index) ? current.filter((i) => i !== index) : [...current, index]));
  }

  return (
    <article className="card recipe-detail">
      <button type="button" className="btn btn-ghost btn-small" onClick={onBack}>
        ← All recipes
      </button>
      <h2>{recipe.title}</h2>
      <p className="muted">
        {recipe.category} · {recipe.minutes} minutes
      </p>
      <div className="servings">
        <span>Servings</span>
        <button type="button" className="btn btn-ghost btn-small" aria-label="Fewer servings" onClick={() => setServings((s) => Math.max(1, s - 1))}>
          −
        </button>
        <strong aria-live="polite">{servings}</strong>
        <button type="button" className="btn btn-ghost btn-small" aria-label="More servings" onClick={() => setServings((s) => Math.min(24, s + 1))}>
          +
        </button>
      </div>
      <div className="grid-2">
        <div>
          <h3>Ingredients</h3>
          <ul className="ingredients">
            {recipe.ingredients.map((item) => (
              <li key={item.name}>
                <strong>
                  {scaleAmount(item.amount, recipe.servings, servings)}
                  {item.unit ? ' ' + item.unit : ''}
                </strong>{' '}
                {item.name}
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h3>Method</h3>
          <ol className="steps">
            {recipe.steps.map((step, index) => (
              <li key={step} className={done.includes(index) ? 'is-done' : undefined}>
                <label>
                  <input type="checkbox" checked={done.includes(index)} onChange={() => toggle(index)} />
                  <span>{step}</span>
                </label>
              </li>
            ))}
          </ol>
        </div>
      </div>
    </article>
  );
}

export function Recipes() {
  const [category, setCategory] = useState<(typeof categories)[number]>('All');
  const [query, setQuery] = useState('');
  const [openId, setOpenId] = useState<number | null>(null);
  const open = recipes.find((recipe) => recipe.id === openId);
  const q = query.trim().toLowerCase();
  const shown = recipes.filter(
    (recipe) => (category === 'All' || recipe.category === category) && (q === '' || (recipe.title + ' ' + recipe.ingredients.map((i) => i.name).join(' ')).toLowerCase().includes(q)),
  );

  return (
    <section className="section" id="recipes">
      <div className="wrap">
        {open ? (
          <RecipeDetail key={open.id} recipe={open} onBack={() => setOpenId(null)} />
        ) : (
          <>
            <div className="recipe-toolbar">
              <label className="visually-hidden" htmlFor="recipe-search">
                Search recipes
              </label>
              <input id="recipe-search" className="input" type="search" placeholder="Search by name or ingredient…" value={query} onChange={(event) => setQuery(event.target.value)} />
              <div className="chips" role="group" aria-label="Category">
                {categories.map((c) => (
                  <button key={c} type="button" className="chip" aria-pressed={category === c} onClick={() => setCategory(c)}>
                    {c}
                  </button>
                ))}
              </div>
            </div>
            {shown.length === 0 ? (
              <p className="muted">No recipes match.</p>
            ) : (
              <div className="grid">
                {shown.map((recipe, index) => (
                  <article className="card recipe-card" key={recipe.id}>
                    <div className="recipe-cover" style={{ background: 'linear-gradient(135deg, hsl(' + (index * 61 + 20) + ' 80% 62%), hsl(' + (index * 61 + 350) + ' 70% 48%))' }} aria-hidden="true" />
                    <div className="recipe-body">
                      <span className="badge">{recipe.category}</span>
                      <h3>{recipe.title}</h3>
                      <p className="muted">
                        {recipe.minutes} min · serves {recipe.servings}
                      </p>
                      <button type="button" className="btn btn-ghost btn-small" onClick={() => setOpenId(recipe.id)}>
                        View recipe
                      </button>
                    </div>
                  </article>
                ))}
              </div>
            )}
          </>
        )}
      </div>
    </section>
  );
}
`;

const CSS = `.recipe-toolbar {
  display: grid;
  gap: 1rem;
  margin-bottom: 1.5rem;
}

.recipe-toolbar .input {
  max-width: 28rem;
}

.recipe-toolbar .chips {
  margin: 0;
}

.recipe-card {
  padding: 0;
  overflow: hidden;
}

.recipe-cover {
  aspect-ratio: 16 / 9;
}

.recipe-body {
  padding: 1.25rem 1.5rem 1.5rem;
}

.recipe-body h3 {
  margin-top: 0.75rem;
}

.recipe-detail h2 {
  margin-top: 1rem;
}

.servings {
  display: flex;
  align-items: center;
  gap: 0.75rem;
  margin: 1rem 0 1.5rem;
}

.ingredients {
  padding-left: 1.1rem;
  display: grid;
  gap: 0.4rem;
}

.steps {
  padding-left: 1.1rem;
  display: grid;
  gap: 0.75rem;
}

.steps label {
  display: flex;
  gap: 0.6rem;
  align-items: flex-start;
  cursor: pointer;
}

.steps input {
  margin-top: 0.35rem;
  accent-color: var(--primary);
}

.steps .is-done span {
  color: var(--muted-foreground);
  text-decoration: line-through;
}
`;

export function recipesKind(): KindBlueprint {
  return {
    main: [{ name: 'Recipes', path: 'src/components/Recipes.tsx', content: COMPONENT }],
    support: { 'src/recipes.ts': DATA, 'src/components/Recipes.css': CSS },
    coreSections: [],
    hero: 'compact',
    links: [{ href: '#recipes', label: 'Recipes' }],
    coreTask: { title: 'Build the recipe book', description: 'Recipes with category filters and search; each opens with servings scaling and a step checklist.' },
  };
}
