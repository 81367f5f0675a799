import { campaignStartFigure } from '../fixtures/campaign-start-figure.js';

export default campaignStartFigure({
  name: 'campaign-start-1m',
  personalised: false,
  figure:
    'Campaign start over 1,000,000 contacts opted in to marketing, SQLite, in a process of its own running compiled JavaScript (peak RSS of that process)',
  against: 'the same rows by prepared 500-row INSERTs in one transaction, in a process of its own',
});
