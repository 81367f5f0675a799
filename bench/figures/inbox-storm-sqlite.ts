import { inboxStormFigure } from '../fixtures/inbox-storm.js';

export default inboxStormFigure('sqlite');
