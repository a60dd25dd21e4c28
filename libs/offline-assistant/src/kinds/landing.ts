import type { SectionId } from '../intent.js';
import type { KindBlueprint, KindContext } from './kind.js';

/** A marketing page: the hero, then sections; which proof section comes second depends on the seed. */
export function landing({ spec }: KindContext): KindBlueprint {
  const proof: SectionId = spec.seed % 2 === 0 ? 'stats' : 'steps';
  return {
    main: [],
    support: {},
    coreSections: ['features', proof, 'testimonials', 'cta'],
    hero: 'landing',
    links: [],
    coreTask: {
      title: 'Add the main sections',
      description: `Features, ${proof === 'stats' ? 'key numbers' : 'how it works'}, testimonials and a call to action for ${spec.name}.`,
    },
  };
}
