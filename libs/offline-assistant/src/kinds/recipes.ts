import { kebabCase, str } from '../code.js';
import type { KindBlueprint, KindContext } from './kind.js';

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

/** 'eggs, flour' → ['eggs', 'flour']: the ingredients a person says they have. */
export function parsePantry(text: string): string[] {
  return text
    .split(/[,;\\n]+/)
    .map((item) => item.trim().toLowerCase())
    .filter((item) => item.length > 1);
}

/** How many of a recipe's ingredients the person has (a word of one in the other counts). */
export function matchingIngredients(recipe: Recipe, have: string[]): number {
  return recipe.ingredients.filter((item) => have.some((h) => item.name.toLowerCase().includes(h) || h.includes(item.name.toLowerCase()))).length;
}

/** Recipes that use at least one ingredient the person has, best match first. */
export function suggestRecipes(list: Recipe[], have: string[]): Recipe[] {
  if (have.length === 0) return list;
  return list
    .map((recipe) => ({ recipe, score: matchingIngredients(recipe, have) }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.recipe.minutes - b.recipe.minutes)
    .map((entry) => entry.recipe);
}

/** An ingredient amount for a different number of servings, rounded sensibly. */
export function scaleAmount(amount: number, from: number, to: number): string {
  const value = (amount * to) / from;
  if (value >= 10) return String(Math.round(value));
  return String(Math.round(value * 4) / 4);
}
`;

const COMPONENT = `import { useEffect, useState } from 'react';
import { loadFavourites, saveFavourites, toggleFavourite } from '../favourites';
import { categories, matchingIngredients, parsePantry, recipes, scaleAmount, suggestRecipes, type Recipe } from '../recipes';
import './Recipes.css';

function HeartButton({ saved, title, onToggle }: { saved: boolean; title: string; onToggle: () => void }) {
  return (
    <button type="button" className={saved ? 'heart is-saved' : 'heart'} aria-pressed={saved} aria-label={(saved ? 'Remove ' : 'Save ') + title + (saved ? ' from favourites' : ' to favourites')} onClick={onToggle}>
      {saved ? '♥' : '♡'}
    </button>
  );
}

function RecipeDetail({ recipe, saved, onToggleFavourite, onBack }: { recipe: Recipe; saved: boolean; onToggleFavourite: () => void; onBack: () => void }) {
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
      <div className="recipe-title">
        <h2>{recipe.title}</h2>
        <HeartButton saved={saved} title={recipe.title} onToggle={onToggleFavourite} />
      </div>
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
  const [pantry, setPantry] = useState('');
  const [favourites, setFavourites] = useState(loadFavourites);
  const [favouritesOnly, setFavouritesOnly] = useState(false);
  const [openId, setOpenId] = useState<number | null>(null);

  useEffect(() => {
    saveFavourites(favourites);
  }, [favourites]);

  const open = recipes.find((recipe) => recipe.id === openId);
  const q = query.trim().toLowerCase();
  const have = parsePantry(pantry);
  const shown = suggestRecipes(recipes, have).filter(
    (recipe) =>
      (category === 'All' || recipe.category === category) &&
      (!favouritesOnly || favourites.includes(recipe.id)) &&
      (q === '' || (recipe.title + ' ' + recipe.ingredients.map((i) => i.name).join(' ')).toLowerCase().includes(q)),
  );
  const toggle = (id: number) => setFavourites((current) => toggleFavourite(current, id));

  return (
    <section className="section" id="recipes">
      <div className="wrap">
        {open ? (
          <RecipeDetail key={open.id} recipe={open} saved={favourites.includes(open.id)} onToggleFavourite={() => toggle(open.id)} onBack={() => setOpenId(null)} />
        ) : (
          <>
            <div className="recipe-toolbar">
              <div className="field">
                <label htmlFor="recipe-pantry">Ingredients you have</label>
                <input id="recipe-pantry" className="input" placeholder="e.g. eggs, flour, butter" value={pantry} onChange={(event) => setPantry(event.target.value)} />
              </div>
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
                <button type="button" className="chip" aria-pressed={favouritesOnly} onClick={() => setFavouritesOnly((v) => !v)}>
                  ♥ Favourites ({favourites.length})
                </button>
              </div>
            </div>
            {shown.length === 0 ? (
              <p className="muted">{favouritesOnly && favourites.length === 0 ? 'No favourites yet: tap the heart on a recipe to save it.' : have.length > 0 ? 'No recipe uses those ingredients yet.' : 'No recipes match.'}</p>
            ) : (
              <div className="grid">
                {shown.map((recipe, index) => (
                  <article className="card recipe-card" key={recipe.id}>
                    <div className="recipe-cover" style={{ background: 'linear-gradient(135deg, hsl(' + (index * 61 + 20) + ' 80% 62%), hsl(' + (index * 61 + 350) + ' 70% 48%))' }} aria-hidden="true" />
                    <div className="recipe-body">
                      <div className="recipe-title">
                        <span className="badge">{recipe.category}</span>
                        <HeartButton saved={favourites.includes(recipe.id)} title={recipe.title} onToggle={() => toggle(recipe.id)} />
                      </div>
                      <h3>{recipe.title}</h3>
                      <p className="muted">
                        {recipe.minutes} min · serves {recipe.servings}
                        {have.length > 0 ? ' · uses ' + matchingIngredients(recipe, have) + ' of your ingredients' : ''}
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

const CSS = `.recipe-title {
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 0.75rem;
}

.heart {
  border: 1px solid var(--border);
  background: var(--card);
  color: var(--primary);
  border-radius: 999px;
  width: 2.25rem;
  height: 2.25rem;
  font-size: 1.1rem;
  line-height: 1;
  cursor: pointer;
}

.heart.is-saved {
  background: color-mix(in srgb, var(--primary) 14%, var(--card));
  border-color: var(--primary);
}

.recipe-toolbar {
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

/** The recipe list with favourites (a heart on each recipe, kept in the browser). */
export const RECIPES_COMPONENT = COMPONENT;
export const RECIPES_CSS = CSS;
export const RECIPES_DATA = DATA;

/** src/favourites.ts: ids of favourite items, kept in localStorage so they survive a reload. */
export function favouritesTs(appName: string): string {
  return `const STORAGE_KEY = ${str(`favourites:${kebabCase(appName) || 'app'}`)};

export function loadFavourites(): number[] {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    const parsed: unknown = saved ? JSON.parse(saved) : null;
    return Array.isArray(parsed) ? parsed.filter((id): id is number => typeof id === 'number') : [];
  } catch {
    return [];
  }
}

export function saveFavourites(ids: number[]): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(ids));
  } catch {
    // Storage can be full or blocked; favourites still work for this visit.
  }
}

export function toggleFavourite(ids: number[], id: number): number[] {
  return ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id];
}
`;
}

export function recipesKind({ spec }: KindContext): KindBlueprint {
  return {
    main: [{ name: 'Recipes', path: 'src/components/Recipes.tsx', content: COMPONENT }],
    support: { 'src/recipes.ts': DATA, 'src/favourites.ts': favouritesTs(spec.name), 'src/components/Recipes.css': CSS },
    coreSections: [],
    hero: 'compact',
    links: [{ href: '#recipes', label: 'Recipes' }],
    coreTask: {
      title: 'Build the recipe book',
      description: 'Recipes with search, category filters and suggestions from the ingredients you have; a heart saves favourites (kept in the browser); each opens with servings scaling and a step checklist.',
    },
  };
}
