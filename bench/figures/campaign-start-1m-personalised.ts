import { campaignStartFigure } from '../fixtures/campaign-start-figure.js';

/** campaign-start-1m with every row's values rendered from its contact's attributes and frozen into it. */
export default campaignStartFigure({
  name: 'campaign-start-1m-personalised',
  personalised: true,
  figure:
    'Campaign start over 1,000,000 contacts with two body parameters and a URL suffix from their attributes, each checked and frozen into its row, SQLite, in a process of its own (peak RSS)',
  against: 'the same rendered rows by prepared 500-row INSERTs in one transaction, values read into memory first, no checks',
});
