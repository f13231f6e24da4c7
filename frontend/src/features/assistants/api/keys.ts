/** Cache keys of the assistant screens: the assistant list is shared with the chat (lib/query-keys). */
export { assistantKeys } from '../../../lib/query-keys';
