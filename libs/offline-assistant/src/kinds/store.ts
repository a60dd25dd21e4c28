import { str } from '../code.js';
import type { KindBlueprint, KindContext } from './kind.js';

type Product = readonly [name: string, category: string, cents: number, description: string];

const CATALOGUES: Readonly<Record<string, readonly Product[]>> = {
  coffee: [
    ['House blend, 250 g', 'Coffee', 1400, 'Chocolate, hazelnut and a long sweet finish.'],
    ['Ethiopia Guji, 250 g', 'Coffee', 1800, 'Bergamot, peach and jasmine. Lovely as a pour-over.'],
    ['Swiss-water decaf, 250 g', 'Coffee', 1500, 'All the flavour, none of the jitters.'],
    ['Ceramic mug', 'Gear', 2200, 'Hand-thrown stoneware, 300 ml.'],
    ['Pour-over kit', 'Gear', 4800, 'Dripper, filters and a gooseneck kettle.'],
    ['Gift card', 'Gifts', 2500, 'Good for anything in the shop or the café.'],
  ],
  fitness: [
    ['Resistance bands', 'Equipment', 2900, 'Three strengths for warm-ups and mobility.'],
    ['Cork yoga block', 'Equipment', 1800, 'Firm, grippy and made from natural cork.'],
    ['Training tee', 'Apparel', 3200, 'Breathable recycled fabric.'],
    ['Insulated bottle', 'Accessories', 2400, 'Keeps drinks cold for 24 hours.'],
    ['Jump rope', 'Equipment', 1600, 'Adjustable speed rope with ball bearings.'],
    ['Gym bag', 'Accessories', 5400, 'Water-resistant with a shoe compartment.'],
  ],
  generic: [
    ['Linen tote bag', 'Bags', 2800, 'Strong, washable and roomy enough for everything.'],
    ['Stoneware mug', 'Kitchen', 1900, 'Hand-glazed, dishwasher safe.'],
    ['Scented candle', 'Home', 2400, 'Cedar and fig, 40 hours of burn time.'],
    ['Notebook set', 'Stationery', 1600, 'Three dotted notebooks with recycled paper.'],
    ['Wool throw', 'Home', 8900, 'Soft merino, woven in small batches.'],
    ['Brass desk lamp', 'Home', 12900, 'Warm light with an adjustable arm.'],
  ],
};

export function store({ topic }: KindContext): KindBlueprint {
  const products = CATALOGUES[topic.id] ?? (CATALOGUES['generic'] as readonly Product[]);
  const data = `export interface Product {
  id: number;
  name: string;
  category: string;
  /** Price in cents. */
  cents: number;
  description: string;
}

export const products: Product[] = [
${products.map(([name, category, cents, description], i) => `  { id: ${i + 1}, name: ${str(name)}, category: ${str(category)}, cents: ${cents}, description: ${str(description)} },`).join('\n')}
];

export const categories: string[] = [...new Set(products.map((product) => product.category))];

export type Cart = Record<number, number>;

export function formatPrice(cents: number): string {
  return (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
}

export function addToCart(cart: Cart, id: number): Cart {
  return { ...cart, [id]: (cart[id] ?? 0) + 1 };
}

export function setQuantity(cart: Cart, id: number, quantity: number): Cart {
  const next = { ...cart };
  if (quantity <= 0) delete next[id];
  else next[id] = quantity;
  return next;
}

export function cartLines(cart: Cart): { product: Product; quantity: number }[] {
  return products.filter((product) => (cart[product.id] ?? 0) > 0).map((product) => ({ product, quantity: cart[product.id] ?? 0 }));
}

export function cartTotal(cart: Cart): number {
  return cartLines(cart).reduce((sum, line) => sum + line.product.cents * line.quantity, 0);
}
`;
  const storeTsx = `import { useState } from 'react';
import { addToCart, categories, formatPrice, products, type Cart as CartState } from '../store';
import { Cart } from './Cart';
import './Store.css';

export function Store() {
  const [category, setCategory] = useState<string | null>(null);
  const [cart, setCart] = useState<CartState>({});
  const shown = category === null ? products : products.filter((product) => product.category === category);

  return (
    <section className="section" id="shop">
      <div className="wrap store-layout">
        <div>
          <div className="chips" role="group" aria-label="Category">
            <button type="button" className="chip" aria-pressed={category === null} onClick={() => setCategory(null)}>
              All
            </button>
            {categories.map((c) => (
              <button key={c} type="button" className="chip" aria-pressed={category === c} onClick={() => setCategory(c)}>
                {c}
              </button>
            ))}
          </div>
          <div className="grid product-grid">
            {shown.map((product) => (
              <article className="card product-card" key={product.id}>
                <div className="product-image" style={{ background: 'linear-gradient(135deg, hsl(' + (product.id * 57 + 180) + ' 55% 70%), hsl(' + (product.id * 57 + 220) + ' 50% 50%))' }} aria-hidden="true" />
                <div className="product-body">
                  <span className="badge">{product.category}</span>
                  <h3>{product.name}</h3>
                  <p className="muted">{product.description}</p>
                  <div className="product-footer">
                    <strong>{formatPrice(product.cents)}</strong>
                    <button type="button" className="btn btn-primary btn-small" onClick={() => setCart((current) => addToCart(current, product.id))}>
                      Add to cart
                    </button>
                  </div>
                </div>
              </article>
            ))}
          </div>
        </div>
        <Cart cart={cart} onChange={setCart} />
      </div>
    </section>
  );
}
`;
  const cartTsx = `import { useState } from 'react';
import { cartLines, cartTotal, formatPrice, setQuantity, type Cart as CartState } from '../store';

export function Cart({ cart, onChange }: { cart: CartState; onChange: (cart: CartState) => void }) {
  const [ordered, setOrdered] = useState(false);
  const lines = cartLines(cart);
  const count = lines.reduce((sum, line) => sum + line.quantity, 0);

  return (
    <aside className="card cart" aria-label="Shopping cart">
      <h3>
        Your cart <span className="badge">{count}</span>
      </h3>
      {ordered && lines.length === 0 ? (
        <p className="notice" role="status">
          Thank you! Your order is on its way.
        </p>
      ) : lines.length === 0 ? (
        <p className="muted">Your cart is empty.</p>
      ) : (
        <>
          <ul className="cart-lines">
            {lines.map(({ product, quantity }) => (
              <li key={product.id}>
                <span className="cart-name">{product.name}</span>
                <span className="cart-qty">
                  <button type="button" className="btn btn-ghost btn-small" aria-label={'One less ' + product.name} onClick={() => onChange(setQuantity(cart, product.id, quantity - 1))}>
                    −
                  </button>
                  <span aria-live="polite">{quantity}</span>
                  <button type="button" className="btn btn-ghost btn-small" aria-label={'One more ' + product.name} onClick={() => onChange(setQuantity(cart, product.id, quantity + 1))}>
                    +
                  </button>
                </span>
                <strong>{formatPrice(product.cents * quantity)}</strong>
              </li>
            ))}
          </ul>
          <p className="cart-total">
            <span>Total</span>
            <strong>{formatPrice(cartTotal(cart))}</strong>
          </p>
          <button
            type="button"
            className="btn btn-primary"
            style={{ width: '100%' }}
            onClick={() => {
              setOrdered(true);
              onChange({});
            }}
          >
            Check out
          </button>
        </>
      )}
    </aside>
  );
}
`;
  const css = `.store-layout {
  display: grid;
  gap: 1.5rem;
  grid-template-columns: 1fr 320px;
  align-items: start;
}

.product-grid {
  grid-template-columns: repeat(auto-fill, minmax(min(220px, 100%), 1fr));
}

.product-card {
  padding: 0;
  overflow: hidden;
  display: flex;
  flex-direction: column;
}

.product-image {
  aspect-ratio: 4 / 3;
}

.product-body {
  padding: 1rem 1.25rem 1.25rem;
  display: flex;
  flex-direction: column;
  flex: 1;
}

.product-body h3 {
  margin-top: 0.6rem;
}

.product-body .muted {
  flex: 1;
  font-size: 0.92rem;
}

.product-footer {
  display: flex;
  justify-content: space-between;
  align-items: center;
}

.cart {
  position: sticky;
  top: 84px;
}

.cart-lines {
  list-style: none;
  padding: 0;
  margin: 0 0 1rem;
  display: grid;
  gap: 0.75rem;
}

.cart-lines li {
  display: grid;
  grid-template-columns: 1fr auto;
  gap: 0.25rem 0.75rem;
  align-items: center;
}

.cart-name {
  grid-column: 1 / -1;
  font-weight: 600;
}

.cart-qty {
  display: inline-flex;
  align-items: center;
  gap: 0.5rem;
}

.cart-total {
  display: flex;
  justify-content: space-between;
  border-top: 1px solid var(--border);
  padding-top: 0.75rem;
  font-size: 1.1rem;
}

@media (max-width: 860px) {
  .store-layout {
    grid-template-columns: minmax(0, 1fr);
  }

  .cart {
    position: static;
  }
}
`;
  return {
    main: [{ name: 'Store', path: 'src/components/Store.tsx', content: storeTsx }],
    support: { 'src/store.ts': data, 'src/components/Cart.tsx': cartTsx, 'src/components/Store.css': css },
    coreSections: [],
    hero: 'compact',
    links: [{ href: '#shop', label: 'Shop' }],
    coreTask: { title: 'Build the shop and cart', description: 'A product grid with category filters, a cart with quantities and a total in cents, and a check-out confirmation.' },
  };
}
