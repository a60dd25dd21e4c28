import type { AppKind } from '../intent.js';
import { blog } from './blog.js';
import { calculator } from './calculator.js';
import { dashboard } from './dashboard.js';
import { expenses } from './expenses.js';
import { contactForm, pricing, signupForm } from './forms.js';
import { habits } from './habits.js';
import { kanban } from './kanban.js';
import type { KindBlueprint, KindContext } from './kind.js';
import { landing } from './landing.js';
import { notes } from './notes.js';
import { portfolio } from './portfolio.js';
import { recipesKind } from './recipes.js';
import { standup } from './standup.js';
import { store } from './store.js';
import { todo } from './todo.js';
import { weather } from './weather.js';

export const KIND_BLUEPRINTS: Readonly<Record<AppKind, (ctx: KindContext) => KindBlueprint>> = {
  landing,
  todo,
  dashboard,
  blog,
  portfolio,
  calculator,
  'contact-form': contactForm,
  'signup-form': signupForm,
  pricing,
  notes,
  recipes: recipesKind,
  weather,
  kanban,
  expenses,
  store,
  habits,
  standup,
};
