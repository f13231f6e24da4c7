import { describe, expect, it } from 'vitest';
import { HIGHLIGHTER_KEY_MAX, highlighterKey } from './highlighter-key';

describe('highlighterKey', () => {
  it.each([
    ['Grammar', 'grammar'],
    ['Grammar & spelling!', 'grammarSpelling'],
    ['Use of evidence from the text', 'useOfEvidenceFromTheText'],
    ['  spelling  ', 'spelling'],
    ['WORD CHOICE', 'wordChoice'],
    ["Teacher's notes", 'teachersNotes'],
    ['Ortografía y acentuación', 'ortografíaYAcentuación'],
    ['Грамматика', 'грамматика'],
    ['Point 2: structure', 'point2Structure'],
    ['3 main ideas', 'mainIdeas'],
    ['snake_case-and-dashes', 'snakeCaseAndDashes'],
  ])('%s → %s', (title, key) => {
    expect(highlighterKey(title)).toBe(key);
  });

  it('keeps a 24-character key whole', () => {
    expect(highlighterKey('Use of evidence from the text')).toHaveLength(24);
  });

  it('cuts longer keys to 25 characters', () => {
    const key = highlighterKey('Use of evidence from the whole text');
    expect(key).toBe('useOfEvidenceFromTheWhole');
    expect(key).toHaveLength(HIGHLIGHTER_KEY_MAX);
    expect(highlighterKey('Supercalifragilisticexpialidocious words')).toBe('supercalifragilisticexpia');
  });

  it('gives an empty key when the title has no letters', () => {
    expect(highlighterKey('!!! ???')).toBe('');
    expect(highlighterKey('')).toBe('');
  });
});
