// The words of generated apps: a few topics with their own copy, and a generic voice built from
// the app's subject. Real sentences, never lorem ipsum.

export interface Feature {
  readonly icon: string;
  readonly title: string;
  readonly text: string;
}

export interface Topic {
  readonly id: string;
  readonly match: RegExp;
  readonly headline: string;
  readonly lead: string;
  readonly tagline: string;
  readonly cta: string;
  readonly features: readonly Feature[];
  readonly testimonials: readonly (readonly [quote: string, name: string, role: string])[];
  readonly faqs: readonly (readonly [question: string, answer: string])[];
  readonly stats: readonly (readonly [value: string, label: string])[];
  readonly tiers: readonly (readonly [name: string, monthly: number, blurb: string, perks: readonly string[]])[];
  readonly team: readonly (readonly [name: string, role: string])[];
  readonly gallery: readonly string[];
  readonly steps: readonly (readonly [title: string, text: string])[];
  readonly about: string;
}

const TOPICS: readonly Topic[] = [
  {
    id: 'coffee',
    match: /\b(coffee|cafe|café|espresso|roaster|roastery|tea house|tea shop)\b/i,
    headline: 'Coffee roasted this week, poured by people who care',
    lead: 'Single-origin beans, seasonal drinks and pastries baked every morning. Stay for a while or grab your usual on the way.',
    tagline: 'Small-batch coffee & fresh pastries',
    cta: 'See the menu',
    features: [
      { icon: '☕', title: 'Roasted in house', text: 'We roast in small batches twice a week, so every cup tastes the way the farmer intended.' },
      { icon: '🥐', title: 'Baked every morning', text: 'Croissants, banana bread and cardamom buns come out of our oven before we open.' },
      { icon: '🌱', title: 'Direct trade', text: 'We buy straight from three farms in Ethiopia, Colombia and Guatemala and pay above fair-trade prices.' },
      { icon: '📶', title: 'Room to work', text: 'Fast Wi-Fi, plenty of outlets and a quiet back room that you can book for meetings.' },
      { icon: '🥛', title: 'Any milk you like', text: 'Oat, almond, soy or whole — swap it in any drink at no extra cost.' },
      { icon: '🎁', title: 'Beans to take home', text: 'Every roast is available in 250 g bags, ground to order for your brewer.' },
    ],
    testimonials: [
      ['The best flat white in town, and they remember my name.', 'Maya R.', 'Regular since 2021'],
      ['I came for the coffee and stayed for the cardamom buns.', 'Jonas K.', 'Neighbour'],
      ['Perfect spot for a quiet morning of work.', 'Priya S.', 'Freelance designer'],
    ],
    faqs: [
      ['Do you have decaf?', 'Yes — a Swiss-water decaf from Colombia that tastes like the real thing.'],
      ['Can I reserve a table?', 'The back room can be booked for groups of up to ten. Everything else is first come, first served.'],
      ['Do you sell beans online?', 'Not yet, but you can order by phone and pick up the same day.'],
      ['Are you dog friendly?', 'Dogs are welcome on the terrace and we always keep a water bowl out.'],
    ],
    stats: [
      ['12', 'single origins a year'],
      ['450', 'cups poured every day'],
      ['4.9★', 'average review'],
    ],
    tiers: [
      ['Sip', 9, 'A coffee a week, on us.', ['4 drinks a month', 'Member prices on beans', 'Birthday pastry']],
      ['Daily', 49, 'Your morning cup, every day.', ['One drink every day', '10% off food', 'A bag of beans each month']],
      ['Office', 149, 'Coffee for the whole team.', ['Up to 8 drinks a day', 'Monthly tasting session', 'Free delivery nearby']],
    ],
    team: [
      ['Lena Ortiz', 'Head roaster'],
      ['Sam Whitaker', 'Baker'],
      ['Ada Mensah', 'Café manager'],
    ],
    gallery: ['Morning light at the bar', 'Fresh from the roaster', 'Latte art class', 'Our terrace', 'Cardamom buns', 'Tasting flight'],
    steps: [
      ['Choose your beans', 'Pick a single origin or our house blend.'],
      ['We roast to order', 'Your beans are roasted within two days.'],
      ['Brew and enjoy', 'Pick them up or have them delivered.'],
    ],
    about: 'We opened in a small corner shop in 2019 with one second-hand roaster and a lot of ambition. Today we roast for our café and a handful of neighbours, and we still taste every batch before it goes out.',
  },
  {
    id: 'food',
    match: /\b(bakery|restaurant|bistro|pizza|pizzeria|food|kitchen|diner|bar|brewery|catering|bakehouse|patisserie|burger|sushi|taco)\b/i,
    headline: 'Seasonal food, cooked from scratch and shared at the table',
    lead: 'A short menu that changes with the market, natural wines and a kitchen that cooks everything from scratch.',
    tagline: 'Fresh, local and made from scratch',
    cta: 'Book a table',
    features: [
      { icon: '🥕', title: 'Market fresh', text: 'We plan the menu around what local growers bring us each week.' },
      { icon: '🔥', title: 'Wood-fired', text: 'Bread, pizza and vegetables cooked in our wood-fired oven.' },
      { icon: '🍷', title: 'Natural wines', text: 'A small list of low-intervention wines chosen to go with the food.' },
      { icon: '🌾', title: 'Everything from scratch', text: 'Stocks, sauces, pasta and pastry are all made in our kitchen.' },
      { icon: '🥗', title: 'Something for everyone', text: 'Vegetarian, vegan and gluten-free dishes on every menu.' },
      { icon: '🎉', title: 'Private dining', text: 'Our upstairs room seats 24 for birthdays, dinners and celebrations.' },
    ],
    testimonials: [
      ['Every dish tasted like someone cared about it.', 'Hannah L.', 'Food writer'],
      ['We booked the upstairs room for our anniversary — unforgettable.', 'Marco & Elena', 'Guests'],
      ['The bread alone is worth the trip.', 'Tom B.', 'Regular'],
    ],
    faqs: [
      ['Do you take walk-ins?', 'Yes, we keep a third of our tables for walk-ins every evening.'],
      ['Can you cater for allergies?', 'Tell us when you book and the kitchen will adapt any dish it can.'],
      ['Do you offer takeaway?', 'Pizza and pastries are available to take away from noon until 9 pm.'],
      ['Is there parking?', 'There is a public car park two minutes away on Market Street.'],
    ],
    stats: [
      ['30+', 'local suppliers'],
      ['6', 'new dishes each month'],
      ['1,200', 'happy guests a week'],
    ],
    tiers: [
      ['Lunch', 18, 'Two courses at midday.', ['Starter and main', 'Glass of house wine', 'Coffee included']],
      ['Tasting', 55, 'The chef’s six-course menu.', ['Six seasonal courses', 'Bread and butter', 'Petits fours']],
      ['Private room', 480, 'Dinner for up to 24.', ['Set menu for the group', 'Dedicated host', 'Wine pairing on request']],
    ],
    team: [
      ['Chiara Rossi', 'Head chef'],
      ['Daniel Okafor', 'Pastry chef'],
      ['Ines Laurent', 'Front of house'],
    ],
    gallery: ['The dining room', 'Wood-fired oven', 'Tasting menu', 'Fresh pasta', 'Summer terrace', 'Dessert trolley'],
    steps: [
      ['Book online', 'Pick a date, time and table size.'],
      ['Tell us your needs', 'Allergies, celebrations, high chairs — we plan ahead.'],
      ['Enjoy your meal', 'Sit back; we take care of the rest.'],
    ],
    about: 'We are a small, independent kitchen run by friends who love to cook. We work with farmers we know by name and change the menu as the seasons change.',
  },
  {
    id: 'fitness',
    match: /\b(gym|fitness|yoga|pilates|crossfit|personal train(er|ing)|workout|running|cycling|martial arts|boxing|dance studio|wellness)\b/i,
    headline: 'Get stronger, move better, and enjoy the work',
    lead: 'Small classes, coaches who know your name and programs that fit around your life.',
    tagline: 'Training for real life',
    cta: 'Book a free class',
    features: [
      { icon: '💪', title: 'Coached classes', text: 'Every class has a coach watching your form, never more than 12 people.' },
      { icon: '📅', title: 'Flexible schedule', text: 'Classes from 6 am to 9 pm, seven days a week, bookable in the app.' },
      { icon: '🧘', title: 'Recovery included', text: 'Mobility, stretching and sauna sessions come with every membership.' },
      { icon: '📈', title: 'Track progress', text: 'Regular check-ins and a simple log of your lifts and runs.' },
      { icon: '🥗', title: 'Nutrition help', text: 'Practical eating advice from a registered nutritionist.' },
      { icon: '🤝', title: 'Friendly community', text: 'Monthly socials, challenges and a beginner-friendly welcome.' },
    ],
    testimonials: [
      ['I have never stuck with a gym this long. The coaches make the difference.', 'Aisha M.', 'Member for 2 years'],
      ['I deadlifted my body weight at 52. Still can’t believe it.', 'Robert H.', 'Member'],
      ['Welcoming from the very first class.', 'Leo F.', 'Beginner'],
    ],
    faqs: [
      ['I’m a complete beginner — is that OK?', 'Absolutely. Most members started with our free intro class and every movement can be scaled.'],
      ['Can I pause my membership?', 'Yes, up to two months a year, free of charge.'],
      ['Do you have showers and lockers?', 'Yes, with towels included.'],
      ['Is there a contract?', 'No contracts — memberships are month to month.'],
    ],
    stats: [
      ['40+', 'classes every week'],
      ['12', 'people per class, max'],
      ['850', 'active members'],
    ],
    tiers: [
      ['Starter', 29, 'Two classes a week.', ['8 classes a month', 'Open gym on weekends', 'App access']],
      ['Unlimited', 59, 'Train as often as you like.', ['Unlimited classes', 'Recovery sessions', 'Monthly check-in']],
      ['Personal', 149, 'One-to-one coaching.', ['4 personal sessions', 'Custom program', 'Nutrition plan']],
    ],
    team: [
      ['Nadia Kim', 'Head coach'],
      ['Marcus Bell', 'Strength coach'],
      ['Sofia Ruiz', 'Yoga teacher'],
    ],
    gallery: ['Morning strength class', 'The open gym', 'Sunday yoga', 'Team challenge', 'Recovery room', 'Summer run club'],
    steps: [
      ['Book a free class', 'Meet a coach and try a session.'],
      ['Get your plan', 'We set goals and pick the right classes.'],
      ['Train and track', 'Show up, log your progress, celebrate wins.'],
    ],
    about: 'We started as a group of friends training in a garage. Now we are a community gym with a simple belief: fitness should be welcoming, coached and fun.',
  },
  {
    id: 'software',
    match: /\b(saas|software|startup|mobile app|web app|app launch|platform|api|developer|devtools?|ai|crm|product launch|analytics|automation|cloud)\b/i,
    headline: 'Ship your best work without the busywork',
    lead: 'Plan, track and automate the work that matters, in one fast tool your whole team will actually enjoy using.',
    tagline: 'The calm way to get work done',
    cta: 'Start free trial',
    features: [
      { icon: '⚡', title: 'Fast by default', text: 'Every screen loads in under 100 ms, even with thousands of items.' },
      { icon: '🔁', title: 'Automations', text: 'Turn repetitive steps into rules that run on their own.' },
      { icon: '🔒', title: 'Secure', text: 'SSO, audit logs and encryption at rest on every plan.' },
      { icon: '🔌', title: 'Integrations', text: 'Connect the tools you already use, from chat to calendars.' },
      { icon: '📊', title: 'Clear reports', text: 'See progress at a glance with dashboards that build themselves.' },
      { icon: '🌍', title: 'Works everywhere', text: 'Web, desktop and mobile apps that stay in sync, even offline.' },
    ],
    testimonials: [
      ['We replaced three tools with this and nobody misses them.', 'Grace Liu', 'COO, Fernway'],
      ['Setup took an afternoon. The time savings started the next day.', 'Omar Haddad', 'Engineering lead, Kitebase'],
      ['Finally a tool my whole team likes opening.', 'Julia Novak', 'Founder, Brightloop'],
    ],
    faqs: [
      ['Is there a free trial?', 'Yes, 14 days with every feature and no credit card required.'],
      ['Can I import my data?', 'Import from CSV or connect your old tool and we move everything in minutes.'],
      ['Where is my data stored?', 'In EU or US data centres — you choose when you sign up.'],
      ['Can I cancel any time?', 'Yes. Plans are monthly or yearly and you can cancel from settings.'],
    ],
    stats: [
      ['10k+', 'teams onboard'],
      ['99.99%', 'uptime last year'],
      ['4 h', 'saved per person each week'],
    ],
    tiers: [
      ['Starter', 0, 'For individuals getting started.', ['Up to 3 projects', 'Basic automations', 'Community support']],
      ['Team', 12, 'For growing teams.', ['Unlimited projects', 'Advanced automations', 'Priority support']],
      ['Business', 29, 'For organisations at scale.', ['SSO and audit logs', 'Custom roles', 'Dedicated success manager']],
    ],
    team: [
      ['Ava Chen', 'Co-founder & CEO'],
      ['Noah Patel', 'Co-founder & CTO'],
      ['Mia Johansson', 'Head of design'],
    ],
    gallery: ['Project overview', 'Automation builder', 'Reports', 'Mobile app', 'Integrations', 'Team settings'],
    steps: [
      ['Create a workspace', 'Sign up and invite your team in a minute.'],
      ['Bring your work', 'Import projects or start from a template.'],
      ['Automate the rest', 'Set rules once and let them run.'],
    ],
    about: 'We are a small, remote team of engineers and designers who got tired of slow, cluttered tools. We build the product we always wanted to use.',
  },
  {
    id: 'creative',
    match: /\b(photograph(y|er)|design(er)?|artist|studio|agency|illustrat(or|ion)|architect|video|film|creative|music|band|musician|wedding)\b/i,
    headline: 'Thoughtful work for people and brands with something to say',
    lead: 'An independent studio creating identities, images and stories that feel honest — and get noticed.',
    tagline: 'Independent creative studio',
    cta: 'Start a project',
    features: [
      { icon: '🎨', title: 'Brand identity', text: 'Logos, colour, type and guidelines that hold together everywhere.' },
      { icon: '📷', title: 'Photography', text: 'Portraits, products and events, shot on location or in the studio.' },
      { icon: '🖥️', title: 'Web design', text: 'Fast, accessible websites that are a pleasure to update.' },
      { icon: '🎬', title: 'Motion & video', text: 'Short films and animations for launches and social.' },
      { icon: '✍️', title: 'Copywriting', text: 'Clear words that sound like you, from taglines to whole sites.' },
      { icon: '🧭', title: 'Strategy', text: 'Workshops that turn fuzzy ideas into a plan everyone agrees on.' },
    ],
    testimonials: [
      ['They understood what we wanted before we could say it.', 'Clara Mendes', 'Founder, Oak & Ash'],
      ['Our new identity doubled enquiries within a month.', 'Peter Lang', 'Director, Lang Architects'],
      ['Calm, creative and always on time.', 'Yuki Tanaka', 'Marketing lead, Koi Tea'],
    ],
    faqs: [
      ['How long does a project take?', 'Most identity projects take four to six weeks from kick-off to delivery.'],
      ['Do you work with small businesses?', 'Most of our clients are small and independent — we love that.'],
      ['What does a project cost?', 'Projects start at 2,500 USD; we send a fixed quote after a first call.'],
      ['Can you work remotely?', 'Yes, we work with clients all over the world.'],
    ],
    stats: [
      ['120+', 'projects delivered'],
      ['14', 'design awards'],
      ['9 yrs', 'in business'],
    ],
    tiers: [
      ['Session', 350, 'A half-day shoot or workshop.', ['4 hours on location', '30 edited images', 'Online gallery']],
      ['Identity', 2500, 'A complete brand identity.', ['Logo and colour system', 'Typography', 'Brand guidelines']],
      ['Retainer', 1800, 'Ongoing creative support.', ['Monthly content', 'Priority scheduling', 'Quarterly strategy call']],
    ],
    team: [
      ['Elise Moreau', 'Creative director'],
      ['Kwame Asante', 'Photographer'],
      ['Lucia Ferrari', 'Designer'],
    ],
    gallery: ['Oak & Ash identity', 'Koi Tea packaging', 'Portrait series', 'Lang Architects site', 'Festival poster', 'Studio at dusk'],
    steps: [
      ['Tell us about it', 'A short call to understand your goals.'],
      ['We explore', 'Research, sketches and a clear direction.'],
      ['We deliver', 'Finished files, guidelines and support.'],
    ],
    about: 'We are a small studio of designers and photographers working from a converted warehouse. We take on a handful of projects at a time so each one gets our full attention.',
  },
  {
    id: 'travel',
    match: /\b(travel|trip|tour|hotel|hostel|b&b|bed and breakfast|holiday|vacation|adventure|hiking|camping|surf|ski)\b/i,
    headline: 'Trips planned by locals, for travellers who want the real thing',
    lead: 'Small-group tours, hand-picked stays and a local guide who knows the places that are not in the guidebooks.',
    tagline: 'Small-group adventures',
    cta: 'Find a trip',
    features: [
      { icon: '🧭', title: 'Local guides', text: 'Every trip is led by someone who lives there.' },
      { icon: '👥', title: 'Small groups', text: 'Never more than 10 travellers, so it never feels like a tour bus.' },
      { icon: '🏡', title: 'Hand-picked stays', text: 'Family-run guesthouses and boutique hotels we have slept in ourselves.' },
      { icon: '🌿', title: 'Low impact', text: 'Trains over planes where we can, and carbon offsets on every trip.' },
      { icon: '📱', title: 'Everything in one place', text: 'Tickets, maps and your itinerary in one simple app.' },
      { icon: '🛟', title: 'Flexible booking', text: 'Change dates for free up to 30 days before you leave.' },
    ],
    testimonials: [
      ['The best week of our year — every detail was taken care of.', 'Rachel & Ben', 'Travelled to Portugal'],
      ['Our guide took us to places we never would have found.', 'Kenji W.', 'Travelled to Japan'],
      ['Small group, big memories.', 'Fatima A.', 'Travelled to Morocco'],
    ],
    faqs: [
      ['How fit do I need to be?', 'Each trip has an activity level from 1 to 5 so you can pick what suits you.'],
      ['Are flights included?', 'Flights are not included, but we are happy to suggest the best connections.'],
      ['Can I travel solo?', 'About half of our travellers come on their own.'],
      ['What if I need to cancel?', 'Cancel up to 60 days before departure for a full refund.'],
    ],
    stats: [
      ['48', 'destinations'],
      ['9,000+', 'happy travellers'],
      ['10', 'people per group, max'],
    ],
    tiers: [
      ['Weekend', 390, 'Three days close to home.', ['2 nights', 'Local guide', 'Breakfast included']],
      ['Classic', 1290, 'Our most popular week.', ['7 nights', 'All transport', 'Most meals']],
      ['Expedition', 2890, 'Two weeks off the beaten track.', ['14 nights', 'Specialist guide', 'All meals and permits']],
    ],
    team: [
      ['Marta Silva', 'Trip designer'],
      ['Ahmed Benali', 'Lead guide'],
      ['Hana Sato', 'Traveller care'],
    ],
    gallery: ['Sunrise over the valley', 'Old town streets', 'Coastal walk', 'Mountain hut', 'Night market', 'Harbour at dusk'],
    steps: [
      ['Pick a trip', 'Browse by region, season or activity.'],
      ['Book your place', 'Reserve with a small deposit.'],
      ['Pack and go', 'We handle the rest, door to door.'],
    ],
    about: 'We started by organising trips for friends. Word spread, and today we plan small-group journeys with local guides in more than forty destinations.',
  },
  {
    id: 'education',
    match: /\b(course|school|tutor(ing)?|class(es)?|academy|learning|lessons?|workshop|bootcamp|teacher|university|language)\b/i,
    headline: 'Learn new skills with teachers who make it click',
    lead: 'Live lessons, practical projects and a supportive group that keeps you going until you finish.',
    tagline: 'Learning that sticks',
    cta: 'Join the next cohort',
    features: [
      { icon: '🎓', title: 'Expert teachers', text: 'Learn from practitioners who do this work every day.' },
      { icon: '🧩', title: 'Hands-on projects', text: 'Every module ends with something real you can show.' },
      { icon: '🗓️', title: 'Live and recorded', text: 'Join live or catch up on recordings at your own pace.' },
      { icon: '💬', title: 'Study groups', text: 'Small peer groups meet weekly to keep each other on track.' },
      { icon: '📜', title: 'Certificate', text: 'A certificate you can add to your profile when you finish.' },
      { icon: '♿', title: 'Accessible', text: 'Captions, transcripts and flexible deadlines for everyone.' },
    ],
    testimonials: [
      ['I changed careers six months after finishing the course.', 'Ella P.', 'Graduate'],
      ['The projects made everything make sense.', 'Ravi N.', 'Student'],
      ['Best teacher I have had since school.', 'Sara D.', 'Graduate'],
    ],
    faqs: [
      ['Do I need experience?', 'No — the first module starts from the basics.'],
      ['How much time does it take?', 'Plan for about six hours a week.'],
      ['Is there a refund policy?', 'Full refund within the first 14 days, no questions asked.'],
      ['Will I get a certificate?', 'Yes, once you complete the final project.'],
    ],
    stats: [
      ['3,200', 'graduates'],
      ['94%', 'completion rate'],
      ['4.8★', 'average rating'],
    ],
    tiers: [
      ['Self-paced', 99, 'Learn on your schedule.', ['All recordings', 'Project briefs', 'Community forum']],
      ['Cohort', 390, 'Learn together, live.', ['Live lessons', 'Weekly feedback', 'Certificate']],
      ['Mentored', 890, 'One-to-one support.', ['Everything in Cohort', '6 mentor sessions', 'Career review']],
    ],
    team: [
      ['Dr. Amara Obi', 'Lead teacher'],
      ['Felix Braun', 'Mentor'],
      ['Zoe Martin', 'Student success'],
    ],
    gallery: ['Live workshop', 'Project demo day', 'Study group', 'Graduation', 'Campus library', 'Mentor session'],
    steps: [
      ['Enrol', 'Pick a start date that suits you.'],
      ['Learn by doing', 'Weekly lessons and projects.'],
      ['Graduate', 'Finish your portfolio and get certified.'],
    ],
    about: 'We are teachers and practitioners who believe learning should be practical, social and open to anyone willing to put in the work.',
  },
];

function genericTopic(name: string, subject: string | null): Topic {
  const what = subject ?? 'your work';
  const What = what.charAt(0).toUpperCase() + what.slice(1);
  return {
    id: 'generic',
    match: /$^/,
    headline: subject ? `${What}, made simple` : `Everything you need, in one place`,
    lead: `${name} brings together everything you need for ${what}: simple to start, easy to love and ready to grow with you.`,
    tagline: subject ? `${What}, done right` : 'Simple, friendly and reliable',
    cta: 'Get started',
    features: [
      { icon: '✨', title: 'Made for you', text: `Designed around the way people really approach ${what}.` },
      { icon: '⚡', title: 'Quick to start', text: 'Up and running in minutes, with nothing to install.' },
      { icon: '💬', title: 'Friendly support', text: 'Real people answer within a few hours, every day of the week.' },
      { icon: '💸', title: 'Fair pricing', text: 'Clear prices with no hidden fees or long contracts.' },
      { icon: '🔄', title: 'Always improving', text: 'New improvements every month, shaped by your feedback.' },
      { icon: '🔒', title: 'Private by design', text: 'Your information stays yours. We never sell data.' },
    ],
    testimonials: [
      [`${name} made ${what} so much easier for us.`, 'Alex Morgan', 'Customer'],
      ['Friendly, fast and exactly what we needed.', 'Sam Rivera', 'Customer'],
      ['I recommend them to everyone I know.', 'Jordan Lee', 'Customer'],
    ],
    faqs: [
      [`What is ${name}?`, `${name} is here to make ${what} simpler, from the first step to the last.`],
      ['How do I get started?', 'Get in touch or sign up — it only takes a minute.'],
      ['How much does it cost?', 'There is a free option, and paid plans start at a few dollars a month.'],
      ['Can I get help?', 'Yes, our support team is happy to help by email or chat.'],
    ],
    stats: [
      ['2,500+', 'happy customers'],
      ['24 h', 'average response time'],
      ['4.9★', 'average rating'],
    ],
    tiers: [
      ['Basic', 0, 'Everything to get started.', ['Core features', 'Email support', 'One user']],
      ['Plus', 15, 'For people who want more.', ['Everything in Basic', 'Priority support', 'Up to 5 users']],
      ['Pro', 39, 'For teams and businesses.', ['Everything in Plus', 'Advanced options', 'Unlimited users']],
    ],
    team: [
      ['Riley Adams', 'Founder'],
      ['Casey Nguyen', 'Operations'],
      ['Morgan Blake', 'Customer care'],
    ],
    gallery: ['Where it all happens', 'Behind the scenes', 'Our community', 'Made with care', 'A good day', 'What we love'],
    steps: [
      ['Get in touch', 'Tell us what you need.'],
      ['We set things up', 'We tailor everything to you.'],
      ['Enjoy the results', 'Sit back and see the difference.'],
    ],
    about: `${name} started with a simple idea: ${what} should be easy, honest and a little bit delightful. We are a small team that cares about getting the details right.`,
  };
}

/** The copy for an app: the first topic its subject or prompt mentions, or the generic voice. */
export function topicFor(name: string, subject: string | null, prompt: string): Topic {
  const haystack = `${subject ?? ''} ${prompt}`;
  return TOPICS.find((topic) => topic.match.test(subject ?? '')) ?? TOPICS.find((topic) => topic.match.test(haystack)) ?? genericTopic(name, subject);
}
