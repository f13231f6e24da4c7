import { setupServer } from 'msw/node';
import { handlers } from './handlers';

/** The MSW server intercepting fetch in tests; started and reset by the setup file. */
export const server = setupServer(...handlers);
