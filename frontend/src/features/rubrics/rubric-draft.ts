import type { LevelRange, Rubric, RubricCriterion, RubricInput } from './types';

/**
 * What the empty fields of a new rubric suggest (spec §3's defaults, 'New Rubric Title',
 * 'Criterion Description' and 'Level Description', are shown as placeholders, never filled in, so
 * Save cannot store them by accident).
 */
export const RUBRIC_NAME_PLACEHOLDER = 'New Rubric Title';
/** The placeholder of a criterion's description. */
export const CRITERION_PLACEHOLDER = 'Criterion Description: what is being judged?';
/** The placeholder of a level's description. */
export const LEVEL_PLACEHOLDER = 'Level Description: what does work at this level look like?';

/** One level as edited: min and max stay strings so a field can be empty. */
export interface DraftLevel {
  key: string;
  description: string;
  min: string;
  max: string;
}

/** One criterion as edited. */
export interface DraftCriterion {
  key: string;
  description: string;
  useRange: boolean;
  levels: DraftLevel[];
}

/** The rubric being edited. */
export interface RubricDraft {
  name: string;
  criteria: DraftCriterion[];
}

let lastKey = 0;
/** A React key for a new criterion or level, stable while it moves around. */
function newKey(): string {
  lastKey += 1;
  return `d${lastKey}`;
}

function numberText(value: number | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : '';
}

/** A level, empty unless a description is given. */
export function newLevel(description = ''): DraftLevel {
  return { key: newKey(), description, min: '', max: '' };
}

/** A new criterion: an empty description with one empty level. */
export function newCriterion(): DraftCriterion {
  return { key: newKey(), description: '', useRange: false, levels: [newLevel()] };
}

/** A new rubric: no name, one empty criterion (the spec's defaults are the placeholders). */
export function newDraft(): RubricDraft {
  return { name: '', criteria: [newCriterion()] };
}

/**
 * What a level is worth, in words: levels are listed best first, so without point ranges level 1
 * of n is worth n points and each later level one less (as the server scores them); with ranges,
 * the range typed in, or null while it is incomplete.
 */
export function levelWorth(criterion: DraftCriterion, index: number): string | null {
  const points = (n: number) => `${n} ${n === 1 ? 'point' : 'points'}`;
  if (!criterion.useRange) return points(criterion.levels.length - index);
  const level = criterion.levels[index];
  const min = parsePoints(level.min);
  const max = parsePoints(level.max);
  if (min === undefined || max === undefined) return null;
  return min === max ? points(min) : `${min}–${max} points`;
}

/** The draft of a saved rubric; each level picks up its range by `levelDescriptionsIndex`. */
export function draftFromRubric(rubric: Rubric): RubricDraft {
  return {
    name: rubric.name,
    criteria: (rubric.criteria ?? []).map((criterion) => {
      const ranges = new Map<number, LevelRange>();
      for (const range of criterion.levelRanges ?? []) ranges.set(range.levelDescriptionsIndex, range);
      return {
        key: newKey(),
        description: criterion.criterionDescription,
        useRange: Boolean(criterion.useRange),
        levels: (criterion.levelDescriptions ?? []).map((description, index) => ({
          key: newKey(),
          description,
          min: numberText(ranges.get(index)?.min),
          max: numberText(ranges.get(index)?.max),
        })),
      };
    }),
  };
}

/** A number typed into a field, or undefined when the field is empty or not a number. */
export function parsePoints(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * What rubric/put and rubric/update receive. With point ranges on, a level gets a range entry
 * when at least one of its fields is filled in, and `levelRanges` is left out when none is: the
 * server then answers with the matching spec message. With ranges off, no ranges are sent.
 */
export function toRubricInput(draft: RubricDraft): RubricInput {
  return {
    name: draft.name,
    criteria: draft.criteria.map((criterion): RubricCriterion => {
      const out: RubricCriterion = {
        criterionDescription: criterion.description,
        levelDescriptions: criterion.levels.map((level) => level.description),
        useRange: criterion.useRange,
      };
      if (criterion.useRange) {
        const ranges = criterion.levels.flatMap((level, index): LevelRange[] => {
          const min = parsePoints(level.min);
          const max = parsePoints(level.max);
          if (min === undefined && max === undefined) return [];
          return [
            {
              levelDescriptionsIndex: index,
              ...(min !== undefined ? { min } : {}),
              ...(max !== undefined ? { max } : {}),
            },
          ];
        });
        if (ranges.length > 0) out.levelRanges = ranges;
      }
      return out;
    }),
  };
}

/** A change to the draft. Indexes are positions; `by` is -1 (up / earlier) or 1 (down / later). */
export type DraftAction =
  | { type: 'setName'; name: string }
  | { type: 'addCriterion' }
  | { type: 'removeCriterion'; criterion: number }
  | { type: 'moveCriterion'; criterion: number; by: -1 | 1 }
  | { type: 'setCriterionDescription'; criterion: number; description: string }
  | { type: 'setUseRange'; criterion: number; useRange: boolean }
  | { type: 'addLevel'; criterion: number }
  | { type: 'removeLevel'; criterion: number; level: number }
  | { type: 'moveLevel'; criterion: number; level: number; by: -1 | 1 }
  | { type: 'setLevelDescription'; criterion: number; level: number; description: string }
  | { type: 'setLevelPoints'; criterion: number; level: number; bound: 'min' | 'max'; value: string };

function move<T>(items: T[], from: number, by: number): T[] {
  const to = from + by;
  if (from < 0 || from >= items.length || to < 0 || to >= items.length) return items;
  const out = items.slice();
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item);
  return out;
}

function updateAt<T>(items: T[], index: number, change: (item: T) => T): T[] {
  return items.map((item, i) => (i === index ? change(item) : item));
}

/** Applies one change. A rubric keeps at least one criterion, and a criterion one level. */
export function draftReducer(draft: RubricDraft, action: DraftAction): RubricDraft {
  const criteria = (change: (list: DraftCriterion[]) => DraftCriterion[]) => ({ ...draft, criteria: change(draft.criteria) });
  const criterion = (index: number, change: (c: DraftCriterion) => DraftCriterion) =>
    criteria((list) => updateAt(list, index, change));
  switch (action.type) {
    case 'setName':
      return { ...draft, name: action.name };
    case 'addCriterion':
      return criteria((list) => [...list, newCriterion()]);
    case 'removeCriterion':
      if (draft.criteria.length <= 1) return draft;
      return criteria((list) => list.filter((_, i) => i !== action.criterion));
    case 'moveCriterion':
      return criteria((list) => move(list, action.criterion, action.by));
    case 'setCriterionDescription':
      return criterion(action.criterion, (c) => ({ ...c, description: action.description }));
    case 'setUseRange':
      return criterion(action.criterion, (c) => ({ ...c, useRange: action.useRange }));
    case 'addLevel':
      return criterion(action.criterion, (c) => ({ ...c, levels: [...c.levels, newLevel()] }));
    case 'removeLevel':
      return criterion(action.criterion, (c) =>
        c.levels.length <= 1 ? c : { ...c, levels: c.levels.filter((_, i) => i !== action.level) },
      );
    case 'moveLevel':
      return criterion(action.criterion, (c) => ({ ...c, levels: move(c.levels, action.level, action.by) }));
    case 'setLevelDescription':
      return criterion(action.criterion, (c) => ({
        ...c,
        levels: updateAt(c.levels, action.level, (l) => ({ ...l, description: action.description })),
      }));
    case 'setLevelPoints':
      return criterion(action.criterion, (c) => ({
        ...c,
        levels: updateAt(c.levels, action.level, (l) => ({ ...l, [action.bound]: action.value })),
      }));
  }
}

/** A stable text form of what would be saved, to tell whether the draft has unsaved changes. */
export function draftSignature(draft: RubricDraft): string {
  return JSON.stringify(toRubricInput(draft));
}
