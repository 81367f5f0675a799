import { eventDeliveryFigure } from '../fixtures/event-delivery.js';

export default eventDeliveryFigure('postgres');
