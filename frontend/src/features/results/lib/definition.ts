import type { RubricCriterion } from '../../../lib/rubrics';
import type { FunctionResult } from '../api/types';
import { fallbackColor } from '../../../lib/highlight-paint';

/**
 * The parts of an assignment's definition (`db/function/get`) the result screens read. Any
 * definition object fits: the assignments feature's `AssignmentFunction` and the student page's
 * view-only function alike.
 */

/** A highlighter: its key (the tag name in highlightedText), colour (`purple-500`) and title. */
export interface HighlighterInfo {
  key: string;
  color: string;
  title: string;
}

/** A grade question with its criteria; subquestions nest at most 3 levels. */
export interface QuestionInfo {
  questionText: string;
  criteria: { description: string; points: number }[];
  subquestions?: QuestionInfo[];
}

/** What a review component needs of the assignment's definition. */
export interface ResultFunction {
  _id: string;
  highlights?: HighlighterInfo[];
  rubric?: { name?: string; criteria: RubricCriterion[] } | null;
  questions?: QuestionInfo[];
  prompt?: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function list<T>(value: unknown, item: (v: unknown) => T | null): T[] {
  return Array.isArray(value) ? value.map(item).filter((v): v is T => v !== null) : [];
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function question(value: unknown): QuestionInfo | null {
  if (!isObject(value)) return null;
  return {
    questionText: str(value.questionText),
    criteria: list(value.criteria, (c) => (isObject(c) ? { description: str(c.description), points: num(c.points) } : null)),
    subquestions: list(value.subquestions, question),
  };
}

function rubricCriterion(value: unknown): RubricCriterion | null {
  if (!isObject(value)) return null;
  return {
    criterionDescription: str(value.criterionDescription),
    levelDescriptions: list(value.levelDescriptions, (d) => (typeof d === 'string' ? d : null)),
    useRange: value.useRange === true,
    levelRanges: list(value.levelRanges, (r) =>
      isObject(r)
        ? {
            levelDescriptionsIndex: num(r.levelDescriptionsIndex),
            min: typeof r.min === 'number' ? r.min : undefined,
            max: typeof r.max === 'number' ? r.max : undefined,
          }
        : null,
    ),
  };
}

/** A definition as the server sent it (lists may be null or missing), read into a {@link ResultFunction}. */
export function normalizeResultFunction(raw: unknown): ResultFunction {
  const fn = isObject(raw) ? raw : {};
  return {
    _id: str(fn._id),
    highlights: list(fn.highlights, (h) =>
      isObject(h) ? { key: str(h.key), color: str(h.color), title: str(h.title) || str(h.key) } : null,
    ),
    rubric: isObject(fn.rubric)
      ? { name: str(fn.rubric.name), criteria: list(fn.rubric.criteria, rubricCriterion) }
      : null,
    questions: list(fn.questions, question),
    prompt: str(fn.prompt),
  };
}

/** "criterion2Evidence" → "Criterion 2 evidence": a readable title for a key the assignment does not define. */
function titleFromKey(key: string): string {
  const words = key.replace(/(\p{Lu}|\p{Nd}+)/gu, ' $1').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The highlighter of each key used in a highlightedText: the assignment's own highlighter when it
 * defines the key, else a readable title and a colour of its own (rubric-feedback results may
 * highlight with keys the assignment does not list).
 */
export function highlighterLookup(
  highlighters: readonly HighlighterInfo[] | undefined,
  keys: readonly string[],
): Map<string, HighlighterInfo> {
  const byKey = new Map<string, HighlighterInfo>((highlighters ?? []).map((h) => [h.key, h]));
  let extra = 0;
  for (const key of keys) {
    if (byKey.has(key)) continue;
    byKey.set(key, { key, title: titleFromKey(key), color: fallbackColor(extra) });
    extra += 1;
  }
  return byKey;
}

/** Props every review component takes (FeedbackReview, RubricReview, PromptReview). */
export interface ResultReviewProps {
  /** The result shown. */
  result: FunctionResult;
  /** The assignment's definition (`db/function/get`, or its view-only variant). */
  fn: ResultFunction;
  /** The submission's text. */
  text: string;
  /** True shows the result without any way to edit it (the student's page). */
  readOnly?: boolean;
  /** Called after an edit is saved, e.g. to refresh the page's assignment query. */
  onChanged?: () => void;
}
