// The example ideas on the landing page: a visitor starts from one with one click, so each must
// build the app it names — also with the offline assistant, whose spec builds every one of them.

export interface LandingExample {
  /** The chip's words. */
  readonly label: string;
  /** The prompt the chip puts in the box. */
  readonly prompt: string;
}

export const LANDING_EXAMPLES = [
  { label: 'Habit tracker', prompt: 'A habit tracker with daily streaks, reminders and a weekly progress chart' },
  { label: 'Recipe finder', prompt: 'A recipe finder that suggests meals from the ingredients I already have' },
  { label: 'Portfolio', prompt: 'A portfolio site for a photographer with galleries, an about page and a contact form' },
  { label: 'Team standups', prompt: 'An async standup app where my team posts daily updates and blockers' },
  { label: 'Budget planner', prompt: 'A personal budget planner with categories, monthly limits and spending charts' },
] as const satisfies readonly LandingExample[];
