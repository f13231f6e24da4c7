import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { attachStyleSheets } from '../../../testing/styles';
import { renderWithProviders } from '../../../testing/test-utils';
import { FilePicker } from './FilePicker';

// Computed CSS is asserted here (testing/styles.ts).
attachStyleSheets();

describe('the student file picker', () => {
  it('shows a long file name on one line ending in "…", the whole name as its tooltip', () => {
    const long = `My_photosynthesis_homework_final_version_really_final_${'x'.repeat(211)}_v2.txt`;
    renderWithProviders(<FilePicker file={new File(['Plants.'], long, { type: 'text/plain' })} onSelect={() => {}} />);

    const name = screen.getByText(long);
    expect(name).toHaveAttribute('title', long);
    const style = getComputedStyle(name);
    expect(style.whiteSpace).toBe('nowrap');
    expect(style.textOverflow).toBe('ellipsis');
    expect(style.overflow).toBe('hidden');
    expect(style.overflowWrap).not.toBe('anywhere');
  });
});
