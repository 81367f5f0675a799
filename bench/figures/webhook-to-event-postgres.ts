import { webhookToEventFigure } from '../fixtures/webhook-to-event.js';

export default webhookToEventFigure('postgres');
