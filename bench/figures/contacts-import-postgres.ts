import { contactsImportBenchmark } from '../fixtures/contacts-import-rig.js';

export default contactsImportBenchmark('postgres');
