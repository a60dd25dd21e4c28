import { str } from '../code.js';
import type { KindBlueprint, KindContext } from './kind.js';

export function blog({ spec, topic }: KindContext): KindBlueprint {
  const thing = spec.subject ?? topic.features[0]?.title.toLowerCase() ?? 'good work';
  const f = topic.features;
  const posts = [
    {
      title: `What a year of ${thing} taught us`,
      date: '2025-03-12',
      tags: ['Stories'],
      excerpt: `Twelve months, a lot of mistakes and a few things we would do again tomorrow.`,
      body: [topic.about, `${f[0]?.title}: ${f[0]?.text}`, `${f[1]?.title}: ${f[1]?.text}`, 'If we had to sum it up in one sentence: start small, listen closely and keep going.'],
    },
    {
      title: `A beginner’s guide to ${thing}`,
      date: '2025-02-20',
      tags: ['Guides'],
      excerpt: `Everything we wish someone had told us on day one, in plain language.`,
      body: [
        `If you are new to ${thing}, the most important thing is to begin. You will learn faster by doing than by reading.`,
        `${f[2]?.title}: ${f[2]?.text}`,
        `${f[3]?.title}: ${f[3]?.text}`,
        'Pick one thing from this list, try it this week, and tell us how it went.',
      ],
    },
    {
      title: `Behind the scenes at ${spec.name}`,
      date: '2025-01-28',
      tags: ['Stories', 'Team'],
      excerpt: 'Meet the people who make it all happen, and see how a normal week looks.',
      body: [
        topic.team.map(([name, role]) => `${name} (${role.toLowerCase()})`).join(', ') + ' keep things running.',
        `A normal week starts on Monday with a short planning session. ${f[4]?.text}`,
        `“${topic.testimonials[0]?.[0]}” — messages like that keep us going.`,
      ],
    },
    {
      title: `${f[5]?.title}: why it matters`,
      date: '2024-12-05',
      tags: ['Ideas'],
      excerpt: `${f[5]?.text}`,
      body: [`${f[5]?.text}`, 'It is easy to overlook the small things. We think they are what people remember.', 'Here is how we approach it, and how you can too.'],
    },
  ];
  const data = `export interface Post {
  id: number;
  title: string;
  /** ISO date (YYYY-MM-DD). */
  date: string;
  tags: string[];
  excerpt: string;
  body: string[];
}

export const posts: Post[] = [
${posts
  .map(
    (p, i) => `  {
    id: ${i + 1},
    title: ${str(p.title)},
    date: ${str(p.date)},
    tags: [${p.tags.map((t) => str(t)).join(', ')}],
    excerpt: ${str(p.excerpt)},
    body: [
${p.body.map((b) => `      ${str(b)},`).join('\n')}
    ],
  },`,
  )
  .join('\n')}
];

export function readingMinutes(post: Post): number {
  const words = post.body.join(' ').split(/\\s+/).length;
  return Math.max(1, Math.round(words / 200));
}

export function formatDate(iso: string): string {
  return new Date(iso + 'T12:00:00').toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}

export const allTags: string[] = [...new Set(posts.flatMap((post) => post.tags))].sort();
`;
  const component = `import { useMemo, useState } from 'react';
import { allTags, formatDate, posts, readingMinutes } from '../posts';
import './Blog.css';

export function Blog() {
  const [query, setQuery] = useState('');
  const [tag, setTag] = useState<string | null>(null);
  const [openId, setOpenId] = useState<number | null>(null);

  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return posts.filter((post) => (tag === null || post.tags.includes(tag)) && (q === '' || (post.title + ' ' + post.excerpt).toLowerCase().includes(q)));
  }, [query, tag]);

  const open = posts.find((post) => post.id === openId);

  if (open) {
    return (
      <section className="section" id="posts">
        <article className="wrap article">
          <button type="button" className="btn btn-ghost btn-small" onClick={() => setOpenId(null)}>
            ← All posts
          </button>
          <p className="muted article-meta">
            {formatDate(open.date)} · {readingMinutes(open)} min read
          </p>
          <h2>{open.title}</h2>
          {open.body.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </article>
      </section>
    );
  }

  return (
    <section className="section" id="posts">
      <div className="wrap">
        <div className="blog-toolbar">
          <label className="visually-hidden" htmlFor="post-search">
            Search posts
          </label>
          <input id="post-search" className="input" type="search" placeholder="Search posts…" value={query} onChange={(event) => setQuery(event.target.value)} />
          <div className="chips" role="group" aria-label="Topics">
            <button type="button" className="chip" aria-pressed={tag === null} onClick={() => setTag(null)}>
              All
            </button>
            {allTags.map((t) => (
              <button key={t} type="button" className="chip" aria-pressed={tag === t} onClick={() => setTag(t)}>
                {t}
              </button>
            ))}
          </div>
        </div>
        {shown.length === 0 ? (
          <p className="muted">No posts match your search.</p>
        ) : (
          <div className="grid">
            {shown.map((post) => (
              <article className="card post-card" key={post.id}>
                <p className="muted article-meta">
                  {formatDate(post.date)} · {readingMinutes(post)} min read
                </p>
                <h3>{post.title}</h3>
                <p className="muted">{post.excerpt}</p>
                <div className="post-footer">
                  <span>
                    {post.tags.map((t) => (
                      <span className="badge" key={t}>
                        {t}
                      </span>
                    ))}
                  </span>
                  <button type="button" className="btn btn-ghost btn-small" onClick={() => setOpenId(post.id)}>
                    Read more →
                  </button>
                </div>
              </article>
            ))}
          </div>
        )}
      </div>
    </section>
  );
}
`;
  const css = `.blog-toolbar {
  display: grid;
  gap: 1rem;
  margin-bottom: 1.5rem;
}

.blog-toolbar .input {
  max-width: 28rem;
}

.blog-toolbar .chips {
  margin: 0;
}

.post-card {
  display: flex;
  flex-direction: column;
}

.post-card .muted:last-of-type {
  flex: 1;
}

.post-footer {
  display: flex;
  justify-content: space-between;
  align-items: center;
  gap: 0.5rem;
  margin-top: 1rem;
}

.post-footer .badge {
  margin-right: 0.35rem;
}

.article-meta {
  font-size: 0.85rem;
  margin: 0.5rem 0;
}

.article {
  max-width: 42rem;
}

.article p {
  font-size: 1.1rem;
}
`;
  return {
    main: [{ name: 'Blog', path: 'src/components/Blog.tsx', content: component }],
    support: { 'src/posts.ts': data, 'src/components/Blog.css': css },
    coreSections: [],
    hero: 'compact',
    links: [{ href: '#posts', label: 'Posts' }],
    coreTask: { title: 'Write the posts and the reader', description: 'Four posts with search, topic filters, reading time and a full article view.' },
  };
}
