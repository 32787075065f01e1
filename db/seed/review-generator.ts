import type { Random } from './random.ts';

export interface GeneratedReview {
  rating: number;
  title: string;
  body: string;
  authorName: string;
  createdAt: Date;
}

const FIRST_NAMES = [
  'Jack',
  'Liam',
  'Noah',
  'Oliver',
  'Lachlan',
  'Hamish',
  'Angus',
  'Fletcher',
  'Harrison',
  'Cooper',
  'Darren',
  'Shane',
  'Brett',
  'Wayne',
  'Craig',
  'Nathan',
  'Josh',
  'Mitch',
  'Ryan',
  'Tom',
  'Chloe',
  'Mia',
  'Isla',
  'Ruby',
  'Matilda',
  'Grace',
  'Zoe',
  'Tegan',
  'Kylie',
  'Bec',
  'Kirsty',
  'Jess',
  'Sarah',
  'Emma',
  'Olivia',
  'Sophie',
  'Hannah',
  'Leah',
  'Amy',
  'Tahnee',
  'Mick',
  'Dave',
  'Steve',
  'Pete',
  'Gaz',
  'Robbo',
  'Andrew',
  'Ben',
  'Sam',
  'Luke',
  'Priya',
  'Wei',
  'Minh',
  'Arjun',
  'Nikos',
  'Marco',
  'Hassan',
  'Aroha',
  'Sione',
  'Mei',
] as const;

const SUBURBS = [
  'Parramatta',
  'Penrith',
  'Cronulla',
  'Manly',
  'Blacktown',
  'Liverpool',
  'Hornsby',
  'Marrickville',
  'Chatswood',
  'Campbelltown',
  'Ryde',
  'Castle Hill',
  'Sutherland',
  'Dee Why',
  'Bankstown',
  'Mona Vale',
] as const;

const TITLES: Readonly<Record<number, readonly string[]>> = {
  5: [
    'Absolute workhorse',
    'Best purchase this year',
    'Does exactly what it says',
    'Worth every cent',
    'Brilliant bit of kit',
    "Can't fault it",
    'Top quality',
    'Pro quality at a fair price',
    'Love it',
    'Should have bought one years ago',
  ],
  4: [
    'Solid performer',
    'Very happy overall',
    'Good value',
    'Does the job well',
    'Great for the price',
    'Handy addition to the kit',
    'Pretty impressed',
    'Reliable so far',
  ],
  3: ['Decent but not perfect', 'Okay for occasional use', 'Does the job', 'Mixed feelings', 'Average'],
  2: ['Expected more', 'Not up to trade use', 'Disappointing', "Fine until it wasn't"],
  1: ['Stopped working', 'Would not buy again', 'Poor quality', 'Returned it'],
};

const OPENERS: Readonly<Record<number, readonly string[]>> = {
  5: [
    'This {thing} has been used every day on site and has not missed a beat.',
    'Really well made {thing}, feels solid in the hand.',
    'Replaced my old {thing} with this one and the difference is night and day.',
    'Bought this {thing} on the staff recommendation and it was the right call.',
    'Fantastic {thing}, performs better than brands twice the price.',
  ],
  4: [
    'Good {thing} for the money, does everything I need.',
    'Happy with this {thing}, only small niggles.',
    'Solid {thing} that has handled everything so far.',
    'The {thing} works well, although the case could be better.',
  ],
  3: [
    'The {thing} works, but it feels a bit light on for heavy jobs.',
    'It is an okay {thing} for home use.',
    'Does what a {thing} should, nothing special.',
  ],
  2: [
    'The {thing} struggled with the first proper job I gave it.',
    'Build quality of this {thing} is not what I expected.',
    'Had to return the first {thing} and the replacement is only okay.',
  ],
  1: [
    'The {thing} stopped working after a couple of weeks.',
    'Arrived with a fault and the {thing} never worked properly.',
    'Would not recommend this {thing} for any real work.',
  ],
};

const FOLLOW_UPS: Readonly<Record<'good' | 'mixed' | 'bad', readonly string[]>> = {
  good: [
    'Used it for {use} and it handled it easily.',
    'Picked it up from the store in {suburb} and the staff were helpful.',
    'Great balance and it is comfortable to use for long stretches.',
    'Would buy again without thinking twice.',
    'The whole crew wants one now.',
  ],
  mixed: [
    'Fine for {use}, but I would look at the bigger model for daily use.',
    'Instructions could be clearer.',
    'Works, but there are better options if you use it every day.',
  ],
  bad: [
    'Customer service in {suburb} sorted a refund quickly, at least.',
    'Tried it for {use} and it was not up to it.',
    'Expected better from this brand.',
  ],
};

const fill = (text: string, thing: string, use: string, suburb: string): string =>
  text.replace('{thing}', thing).replace('{use}', use).replace('{suburb}', suburb);

/**
 * Most products collect a handful of reviews, a few popular ones many more, and brand-new
 * products have had little time to collect any.
 */
export function reviewCount(rng: Random, ageDays: number): number {
  const roll = rng.next();
  let count: number;
  if (roll < 0.25) count = 0;
  else if (roll < 0.97) count = Math.min(25, 1 + Math.floor(-Math.log(1 - rng.next()) * 4));
  else count = rng.int(26, 80);
  if (ageDays < 90) count = Math.round((count * ageDays) / 90);
  return count;
}

export function generateReviews(
  rng: Random,
  options: { count: number; quality: number; thing: string; uses: readonly string[]; from: number; to: number },
): GeneratedReview[] {
  const q = options.quality;
  const weights = [4 - 3 * q, 4 - 3 * q, 9 - 6 * q, 28, 40 + 30 * q];
  const reviews: GeneratedReview[] = [];
  for (let i = 0; i < options.count; i++) {
    const rating = rng.weighted([1, 2, 3, 4, 5], weights);
    const use = rng.pick(options.uses);
    const suburb = rng.pick(SUBURBS);
    const sentences = [fill(rng.pick(OPENERS[rating] ?? []), options.thing, use, suburb)];
    const tone = rating >= 4 ? 'good' : rating === 3 ? 'mixed' : 'bad';
    const extra = rng.int(0, 2);
    const followUps = rng.shuffle(FOLLOW_UPS[tone]);
    for (let k = 0; k < extra && k < followUps.length; k++) {
      sentences.push(fill(followUps[k] ?? '', options.thing, use, suburb));
    }
    const initial = String.fromCharCode(65 + rng.int(0, 25));
    const when = options.from + Math.floor(rng.next() * Math.max(0, options.to - options.from));
    reviews.push({
      rating,
      title: rng.pick(TITLES[rating] ?? []),
      body: sentences.join(' '),
      authorName: `${rng.pick(FIRST_NAMES)} ${initial}.`,
      createdAt: new Date(Math.floor(when / 1000) * 1000),
    });
  }
  return reviews;
}
