/** Toast when a required field is empty (spec's error catalogue; the server says the same). */
export const REQUIRED_FIELDS_MESSAGE = 'Please fill in all required fields';
