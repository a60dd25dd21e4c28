import { str, withArticle } from '../code.js';
import { DEFAULT_NAMES } from '../intent.js';
import type { KindBlueprint, KindContext } from './kind.js';

interface Profession {
  readonly match: RegExp;
  readonly role: string;
  readonly categories: readonly [string, string, string];
  readonly skills: readonly (readonly [group: string, items: readonly string[]])[];
}

const PROFESSIONS: readonly Profession[] = [
  {
    match: /photo/i,
    role: 'photographer',
    categories: ['Portraits', 'Weddings', 'Travel'],
    skills: [
      ['Shooting', ['Natural light', 'Studio lighting', 'Film', 'Drone']],
      ['Editing', ['Lightroom', 'Capture One', 'Colour grading', 'Retouching']],
      ['Clients', ['Brands', 'Couples', 'Magazines', 'Musicians']],
    ],
  },
  {
    match: /(develop|engineer|programm|coder|software)/i,
    role: 'software developer',
    categories: ['Web apps', 'Open source', 'Mobile'],
    skills: [
      ['Languages', ['TypeScript', 'Python', 'Go', 'SQL']],
      ['Frameworks', ['React', 'Node.js', 'NestJS', 'React Native']],
      ['Practices', ['Testing', 'Accessibility', 'Performance', 'CI/CD']],
    ],
  },
  {
    match: /(writ|author|journalist|copy)/i,
    role: 'writer',
    categories: ['Essays', 'Fiction', 'Copywriting'],
    skills: [
      ['Writing', ['Long-form', 'Interviews', 'Editing', 'Ghostwriting']],
      ['Topics', ['Culture', 'Technology', 'Travel', 'Food']],
      ['Clients', ['Magazines', 'Startups', 'Publishers', 'Agencies']],
    ],
  },
];

const DESIGNER: Profession = {
  match: /design/i,
  role: 'designer',
  categories: ['Brand', 'Web', 'Print'],
  skills: [
    ['Design', ['Brand identity', 'UI design', 'Typography', 'Illustration']],
    ['Tools', ['Figma', 'Illustrator', 'After Effects', 'Webflow']],
    ['Process', ['Research', 'Workshops', 'Prototyping', 'Design systems']],
  ],
};

export function portfolio({ spec, topic, prompt }: KindContext): KindBlueprint {
  const profession = PROFESSIONS.find((p) => p.match.test(spec.subject ?? '')) ?? PROFESSIONS.find((p) => p.match.test(prompt)) ?? DESIGNER;
  const named = spec.name !== DEFAULT_NAMES.portfolio;
  const role = profession.role;
  const projects = topic.gallery.map((title, i) => ({
    title,
    category: profession.categories[i % 3] as string,
    year: 2025 - Math.floor(i / 2),
    description: `${profession.categories[i % 3]} work: ${topic.features[i % topic.features.length]?.text ?? ''}`,
  }));
  const data = `export interface Project {
  title: string;
  category: string;
  year: number;
  description: string;
}

export const categories = [${profession.categories.map((c) => str(c)).join(', ')}];

export const projects: Project[] = [
${projects.map((p) => `  { title: ${str(p.title)}, category: ${str(p.category)}, year: ${p.year}, description: ${str(p.description)} },`).join('\n')}
];

export const skills: { group: string; items: string[] }[] = [
${profession.skills.map(([group, items]) => `  { group: ${str(group)}, items: [${items.map((i) => str(i)).join(', ')}] },`).join('\n')}
];
`;
  const projectsTsx = `import { useState } from 'react';
import { categories, projects } from '../portfolio';
import './Portfolio.css';

export function Projects() {
  const [category, setCategory] = useState<string | null>(null);
  const shown = category === null ? projects : projects.filter((project) => project.category === category);

  return (
    <section className="section" id="projects">
      <div className="wrap">
        <div className="section-header">
          <span className="eyebrow">Selected work</span>
          <h2>Recent projects</h2>
        </div>
        <div className="chips" role="group" aria-label="Filter projects">
          <button type="button" className="chip" aria-pressed={category === null} onClick={() => setCategory(null)}>
            All
          </button>
          {categories.map((c) => (
            <button key={c} type="button" className="chip" aria-pressed={category === c} onClick={() => setCategory(c)}>
              {c}
            </button>
          ))}
        </div>
        <div className="grid">
          {shown.map((project, index) => (
            <article className="card project-card" key={project.title}>
              <div className="project-cover" style={{ background: 'linear-gradient(135deg, hsl(' + (index * 53 + 210) + ' 65% 60%), hsl(' + (index * 53 + 260) + ' 60% 42%))' }} aria-hidden="true" />
              <div className="project-body">
                <span className="badge">{project.category}</span>
                <h3>{project.title}</h3>
                <p className="muted">{project.description}</p>
                <p className="muted project-year">{project.year}</p>
              </div>
            </article>
          ))}
        </div>
      </div>
    </section>
  );
}
`;
  const skillsTsx = `import { skills } from '../portfolio';

export function Skills() {
  return (
    <section className="section section-alt" id="skills">
      <div className="wrap">
        <div className="section-header">
          <span className="eyebrow">Skills</span>
          <h2>What I work with</h2>
        </div>
        <div className="grid">
          {skills.map((skill) => (
            <article className="card" key={skill.group}>
              <h3>{skill.group}</h3>
              <ul className="skill-list">
                {skill.items.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            </article>
          ))}
        </div>
      </div>
    </section>
  );
}
`;
  const css = `.project-card {
  padding: 0;
  overflow: hidden;
}

.project-cover {
  aspect-ratio: 16 / 10;
}

.project-body {
  padding: 1.25rem 1.5rem 1.5rem;
}

.project-body h3 {
  margin-top: 0.75rem;
}

.project-year {
  font-size: 0.85rem;
  margin: 0;
}

.skill-list {
  list-style: none;
  padding: 0;
  margin: 0;
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem;
}

.skill-list li {
  padding: 0.3rem 0.75rem;
  border-radius: 999px;
  background: var(--muted);
  font-size: 0.9rem;
}
`;
  return {
    main: [
      { name: 'Projects', path: 'src/components/Projects.tsx', content: projectsTsx },
      { name: 'Skills', path: 'src/components/Skills.tsx', content: skillsTsx },
    ],
    support: { 'src/portfolio.ts': data, 'src/components/Portfolio.css': css },
    coreSections: ['about', 'contact'],
    hero: 'landing',
    heroCopy: {
      headline: named ? `Hi, I’m ${spec.name}. I make thoughtful work for good people.` : `${withArticle(role).replace(/^a/, 'A')} who cares about the details`,
      lead: `I’m ${withArticle(role)} helping brands and people tell their story. Here is some recent work — and a way to get in touch.`,
      cta: 'Work with me',
    },
    links: [
      { href: '#projects', label: 'Work' },
      { href: '#skills', label: 'Skills' },
    ],
    coreTask: { title: 'Add projects, skills and contact', description: `A filterable project grid (${profession.categories.join(', ')}), skills, an about section and a contact form.` },
  };
}
