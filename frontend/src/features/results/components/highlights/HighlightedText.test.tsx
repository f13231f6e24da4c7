import { purple } from '@mui/material/colors';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { highlightPaint } from '../../../../lib/highlight-paint';
import { renderResultUi } from '../../testing/render';
import { HighlightedText } from './HighlightedText';
import { attachStyleSheets } from '../../../../testing/styles';

// The highlighter colours are asserted as computed CSS.
attachStyleSheets();

const HIGHLIGHTERS = [
  { key: 'grammar', color: 'purple-500', title: 'Grammar' },
  { key: 'spelling', color: 'orange-500', title: 'Spelling' },
];

const TAGGED =
  'He went to <grammar comment="Use &quot;their&quot; here">there</grammar> house and <spelling comment="Spelled recieve">recieved</spelling> a gift.';

function hexToRgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}

describe('HighlightedText', () => {
  it('paints each passage in its highlighter colours, as a focusable button named by its comment', () => {
    renderResultUi(<HighlightedText highlightedText={TAGGED} highlighters={HIGHLIGHTERS} />);

    const region = screen.getByRole('region', { name: 'Highlighted text' });
    expect(region).toHaveTextContent('He went to there house and recieved a gift.');
    const grammar = screen.getByRole('button', { name: /^Grammar: Use "their" here — “/ });
    expect(grammar).toHaveTextContent(/^there$/);
    expect(grammar).toHaveAttribute('tabindex', '0');
    expect(grammar).toHaveStyle({ backgroundColor: hexToRgb(purple[300]), color: hexToRgb(highlightPaint('purple-500').text) });
    expect(screen.getByRole('button', { name: /^Spelling: Spelled recieve — “/ })).toHaveTextContent('recieved');
  });

  it('names each passage by its highlighter, its comment and the words it marks, so a speech user can say them', () => {
    renderResultUi(<HighlightedText highlightedText={TAGGED} highlighters={HIGHLIGHTERS} />);

    expect(screen.getByRole('button', { name: 'Grammar: Use "their" here — “there”' })).toHaveTextContent(/^there$/);
    expect(screen.getByRole('button', { name: 'Spelling: Spelled recieve — “recieved”' })).toBeInTheDocument();
  });

  it('opens the comment on hover and closes it when the pointer leaves', async () => {
    const user = userEvent.setup();
    renderResultUi(<HighlightedText highlightedText={TAGGED} highlighters={HIGHLIGHTERS} />);

    await user.hover(screen.getByRole('button', { name: /^Grammar/ }));
    const tooltip = await screen.findByRole('tooltip');
    expect(tooltip).toHaveTextContent('Grammar');
    expect(tooltip).toHaveTextContent('Use "their" here');

    await user.unhover(screen.getByRole('button', { name: /^Grammar/ }));
    await waitFor(() => expect(screen.queryByRole('tooltip')).not.toBeInTheDocument());
  });

  it('keeps a clicked comment open until Escape or a click elsewhere', async () => {
    const user = userEvent.setup();
    renderResultUi(
      <>
        <HighlightedText highlightedText={TAGGED} highlighters={HIGHLIGHTERS} />
        <p>Elsewhere</p>
      </>,
    );

    const spelling = screen.getByRole('button', { name: /^Spelling/ });
    await user.click(spelling);
    await user.unhover(spelling);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Spelled recieve');
    expect(spelling).toHaveAttribute('aria-expanded', 'true');

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('tooltip')).not.toBeInTheDocument());

    await user.click(spelling);
    expect(await screen.findByRole('tooltip')).toBeInTheDocument();
    await user.click(screen.getByText('Elsewhere'));
    await waitFor(() => expect(screen.queryByRole('tooltip')).not.toBeInTheDocument());
  });

  it('opens the comment when a passage gets keyboard focus, and moves with the focus', async () => {
    const user = userEvent.setup();
    renderResultUi(<HighlightedText highlightedText={TAGGED} highlighters={HIGHLIGHTERS} />);

    await user.tab();
    expect(screen.getByRole('button', { name: /^Grammar/ })).toHaveFocus();
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Use "their" here');

    await user.tab();
    expect(screen.getByRole('button', { name: /^Spelling/ })).toHaveFocus();
    await waitFor(() => expect(screen.getByRole('tooltip')).toHaveTextContent('Spelled recieve'));

    await user.tab();
    await waitFor(() => expect(screen.queryByRole('tooltip')).not.toBeInTheDocument());
  });

  it("says 'Text not processed...' when there is no highlighted text", () => {
    renderResultUi(<HighlightedText highlightedText="" highlighters={HIGHLIGHTERS} />);
    expect(screen.getByText('Text not processed...')).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it("shows a student's HTML and a comment's HTML as inert text", async () => {
    const user = userEvent.setup();
    const { container } = renderResultUi(
      <HighlightedText
        highlightedText={
          'My &lt;img src=x onerror="alert(1)"&gt; and &lt;script&gt;alert(2)&lt;/script&gt; and <grammar comment="&lt;img src=y onerror=alert(3)&gt;">&lt;b&gt;bold&lt;/b&gt;</grammar>'
        }
        highlighters={HIGHLIGHTERS}
      />,
    );

    expect(screen.getByRole('region')).toHaveTextContent('My <img src=x onerror="alert(1)"> and <script>alert(2)</script> and <b>bold</b>');
    const passage = screen.getByRole('button', { name: /^Grammar: <img src=y onerror=alert\(3\)> — “/ });
    await user.click(passage);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('<img src=y onerror=alert(3)>');
    expect(container.querySelector('img, script, b')).toBeNull();
    expect(document.querySelector('img, script')).toBeNull();
  });

  it('gives keys the assignment does not define a readable name', () => {
    renderResultUi(<HighlightedText highlightedText={'<criterion2Evidence comment="Cite it">x</criterion2Evidence>'} highlighters={[]} />);
    expect(screen.getByRole('button', { name: /^Criterion 2 evidence: Cite it — “/ })).toBeInTheDocument();
  });
});
