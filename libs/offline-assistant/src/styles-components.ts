// The design system's classes (the `components` layer of designSystemCss in styles.ts): layout,
// header, sections, cards, buttons, forms and tables, all on the theme's variables.
export const COMPONENTS_CSS = `  .wrap {
    width: min(1120px, 100% - 2.5rem);
    margin-inline: auto;
  }

  .muted {
    color: var(--muted-foreground);
  }

  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    padding: 0;
    margin: -1px;
    overflow: hidden;
    clip: rect(0, 0, 0, 0);
    white-space: nowrap;
    border: 0;
  }

  .eyebrow {
    display: inline-block;
    font-size: 0.8rem;
    font-weight: 600;
    letter-spacing: 0.08em;
    text-transform: uppercase;
    color: var(--primary);
    margin-bottom: 0.75rem;
  }

  .lead {
    font-size: 1.15rem;
    color: var(--muted-foreground);
    max-width: 40rem;
  }

  /* Header */
  .site-header {
    position: sticky;
    top: 0;
    z-index: 10;
    background: color-mix(in srgb, var(--background) 85%, transparent);
    backdrop-filter: blur(10px);
    border-bottom: 1px solid var(--border);
  }

  .header-inner {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 1rem;
    min-height: 64px;
    flex-wrap: wrap;
  }

  .brand {
    display: inline-flex;
    align-items: center;
    gap: 0.6rem;
    font-weight: 700;
    font-size: 1.1rem;
    color: var(--foreground);
    text-decoration: none;
  }

  .brand-mark {
    display: grid;
    place-items: center;
    width: 2rem;
    height: 2rem;
    border-radius: calc(var(--radius) * 0.6);
    background: var(--primary);
    color: var(--primary-foreground);
    font-size: 1rem;
  }

  .nav {
    display: flex;
    gap: 0.25rem;
    flex-wrap: wrap;
  }

  .nav a {
    padding: 0.4rem 0.75rem;
    border-radius: 999px;
    color: var(--muted-foreground);
    text-decoration: none;
    font-weight: 500;
    font-size: 0.95rem;
    white-space: nowrap;
  }

  .nav a:hover {
    color: var(--foreground);
    background: var(--muted);
  }

  /* Buttons */
  .btn {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 0.5rem;
    padding: 0.7rem 1.25rem;
    border-radius: calc(var(--radius) * 0.75);
    border: 1px solid transparent;
    font-weight: 600;
    text-decoration: none;
    cursor: pointer;
    white-space: nowrap;
    transition: transform 0.1s ease, background 0.15s ease, border-color 0.15s ease;
  }

  .btn:active {
    transform: translateY(1px);
  }

  .btn:disabled {
    opacity: 0.5;
    cursor: not-allowed;
  }

  .btn-primary {
    background: var(--primary);
    color: var(--primary-foreground);
  }

  .btn-primary:hover {
    background: color-mix(in srgb, var(--primary) 88%, black);
  }

  .btn-ghost {
    background: transparent;
    color: var(--foreground);
    border-color: var(--border);
  }

  .btn-ghost:hover {
    background: var(--muted);
  }

  .btn-small {
    padding: 0.35rem 0.7rem;
    font-size: 0.875rem;
  }

  .btn-danger {
    background: transparent;
    color: var(--destructive);
    border-color: color-mix(in srgb, var(--destructive) 35%, transparent);
  }

  /* Hero */
  .hero {
    padding: clamp(3.5rem, 9vw, 7rem) 0 clamp(2.5rem, 6vw, 4.5rem);
    background:
      radial-gradient(60rem 30rem at 85% -10%, color-mix(in srgb, var(--primary) 16%, transparent), transparent),
      var(--background);
  }

  .hero-compact {
    padding: clamp(2rem, 5vw, 3.5rem) 0 1rem;
  }

  .hero h1 {
    max-width: 18em;
  }

  .hero-actions {
    display: flex;
    gap: 0.75rem;
    flex-wrap: wrap;
    margin-top: 1.5rem;
  }

  /* Sections */
  .section {
    padding: clamp(3rem, 7vw, 5rem) 0;
  }

  .section-alt {
    background: var(--muted);
  }

  .section-header {
    max-width: 40rem;
    margin-bottom: 2.5rem;
  }

  .grid {
    display: grid;
    gap: 1.25rem;
    grid-template-columns: repeat(auto-fit, minmax(min(240px, 100%), 1fr));
  }

  .grid-2 {
    display: grid;
    gap: 2rem;
    grid-template-columns: repeat(auto-fit, minmax(min(280px, 100%), 1fr));
    align-items: start;
  }

  .card {
    background: var(--card);
    border: 1px solid var(--border);
    border-radius: var(--radius);
    padding: 1.5rem;
    box-shadow: 0 1px 2px rgb(15 23 42 / 0.04);
  }

  .card h3 {
    font-size: 1.1rem;
  }

  .card p:last-child {
    margin-bottom: 0;
  }

  .icon {
    display: grid;
    place-items: center;
    width: 2.75rem;
    height: 2.75rem;
    border-radius: calc(var(--radius) * 0.75);
    background: color-mix(in srgb, var(--primary) 14%, var(--card));
    font-size: 1.35rem;
    margin-bottom: 1rem;
  }

  .badge {
    display: inline-block;
    padding: 0.15rem 0.6rem;
    border-radius: 999px;
    font-size: 0.75rem;
    font-weight: 600;
    background: color-mix(in srgb, var(--primary) 14%, var(--card));
    color: var(--primary);
  }

  .chips {
    display: flex;
    gap: 0.5rem;
    flex-wrap: wrap;
    margin-bottom: 1.5rem;
  }

  .chip {
    padding: 0.35rem 0.85rem;
    border-radius: 999px;
    border: 1px solid var(--border);
    background: var(--card);
    cursor: pointer;
    font-size: 0.9rem;
  }

  .chip[aria-pressed='true'] {
    background: var(--primary);
    border-color: var(--primary);
    color: var(--primary-foreground);
  }

  .stat-value {
    font-size: 2.25rem;
    font-weight: 800;
    color: var(--primary);
    letter-spacing: -0.03em;
  }

  .quote {
    font-size: 1.05rem;
  }

  .person {
    display: flex;
    align-items: center;
    gap: 0.75rem;
    margin-top: 1rem;
  }

  .avatar {
    display: grid;
    place-items: center;
    width: 2.5rem;
    height: 2.5rem;
    border-radius: 999px;
    background: color-mix(in srgb, var(--primary) 20%, var(--card));
    color: var(--primary);
    font-weight: 700;
  }

  .tier-featured {
    border: 2px solid var(--primary);
    position: relative;
  }

  .price {
    font-size: 2.5rem;
    font-weight: 800;
    letter-spacing: -0.03em;
  }

  .checklist {
    list-style: none;
    padding: 0;
    margin: 1rem 0 1.5rem;
    display: grid;
    gap: 0.5rem;
  }

  .checklist li::before {
    content: '✓';
    color: var(--success, #16a34a);
    font-weight: 700;
    margin-right: 0.5rem;
  }

  .faq details {
    border-bottom: 1px solid var(--border);
    padding: 1rem 0;
  }

  .faq summary {
    cursor: pointer;
    font-weight: 600;
  }

  .faq details p {
    margin: 0.75rem 0 0;
    color: var(--muted-foreground);
  }

  .gallery-tile {
    aspect-ratio: 4 / 3;
    border-radius: var(--radius);
    display: flex;
    align-items: flex-end;
    padding: 1rem;
    color: #fff;
    font-weight: 600;
    text-shadow: 0 1px 2px rgb(0 0 0 / 0.4);
  }

  .cta-band {
    text-align: center;
    background: var(--primary);
    color: var(--primary-foreground);
    border-radius: calc(var(--radius) * 1.5);
    padding: clamp(2rem, 6vw, 4rem) 1.5rem;
  }

  .cta-band .btn {
    background: var(--primary-foreground);
    color: var(--primary);
  }

  /* Forms */
  .form {
    display: grid;
    gap: 1rem;
  }

  .field {
    display: grid;
    gap: 0.35rem;
  }

  .field label {
    font-weight: 600;
    font-size: 0.92rem;
  }

  .input {
    width: 100%;
    padding: 0.65rem 0.85rem;
    border-radius: calc(var(--radius) * 0.6);
    border: 1px solid var(--border);
    background: var(--card);
  }

  .input:focus {
    border-color: var(--primary);
    outline: none;
    box-shadow: 0 0 0 3px color-mix(in srgb, var(--primary) 25%, transparent);
  }

  .input[aria-invalid='true'] {
    border-color: var(--destructive);
  }

  .field-error {
    color: var(--destructive);
    font-size: 0.85rem;
  }

  .inline-form {
    display: flex;
    gap: 0.5rem;
    flex-wrap: wrap;
  }

  .inline-form .input {
    flex: 1 1 12rem;
    width: auto;
  }

  .notice {
    padding: 1rem 1.25rem;
    border-radius: var(--radius);
    background: color-mix(in srgb, var(--success, #16a34a) 12%, var(--card));
    border: 1px solid color-mix(in srgb, var(--success, #16a34a) 35%, transparent);
  }

  /* Tables */
  .table-wrap {
    overflow-x: auto;
  }

  .table {
    width: 100%;
    border-collapse: collapse;
    font-size: 0.95rem;
  }

  .table th,
  .table td {
    text-align: left;
    padding: 0.75rem;
    border-bottom: 1px solid var(--border);
  }

  .table th {
    color: var(--muted-foreground);
    font-weight: 600;
    font-size: 0.8rem;
    text-transform: uppercase;
    letter-spacing: 0.05em;
  }

  /* Footer */
  .site-footer {
    border-top: 1px solid var(--border);
    padding: 2rem 0;
    color: var(--muted-foreground);
    font-size: 0.9rem;
  }

  .footer-inner {
    display: flex;
    justify-content: space-between;
    gap: 1rem;
    flex-wrap: wrap;
  }

  @media (max-width: 640px) {
    .header-inner {
      gap: 0.5rem 1rem;
      padding-top: 0.5rem;
    }

    .nav {
      order: 3;
      width: 100%;
      overflow-x: auto;
      flex-wrap: nowrap;
      padding-bottom: 0.5rem;
      margin-inline: -0.75rem;
    }

    .hero-actions .btn {
      flex: 1 1 auto;
    }
  }
`;
