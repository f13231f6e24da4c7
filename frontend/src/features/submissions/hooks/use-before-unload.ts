// Shared with the review screens' saving: the hook lives in lib.
export { useBeforeUnload } from '../../../lib/use-before-unload';
