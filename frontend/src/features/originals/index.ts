/**
 * The student's original file beside its text on the review screen: PDF pages, photos, and Word and
 * PowerPoint files as page images, with paging, zoom, the pages OCR was unsure of, and the file to
 * download. The app composes {@link OriginalBesideText} around a result's review.
 */
export { OriginalBesideText, type OriginalBesideTextProps } from './components/OriginalBesideText';
export { CHECK_PAGE_MESSAGE, OriginalPane, type OriginalPaneProps } from './components/OriginalPane';
export { originalKeys, originalQueryOptions, useOriginal } from './api/get-original';
