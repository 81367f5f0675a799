import { contactsBulkApiBenchmark } from '../fixtures/contacts-bulk-rig.js';

export default contactsBulkApiBenchmark('postgres');
