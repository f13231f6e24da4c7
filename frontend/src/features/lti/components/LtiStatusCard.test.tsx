import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../testing/server';
import { renderWithProviders } from '../../../testing/test-utils';
import { LtiStatusCard } from './LtiStatusCard';

describe('LtiStatusCard', () => {
  it('shows nothing for an assignment no LMS activity opens', async () => {
    let asked = false;
    server.use(
      http.post('/api/v1/lti/assignment/status', () => {
        asked = true;
        return HttpResponse.json({ data: { lti: { linked: false, scores: [] } } });
      }),
    );
    renderWithProviders(<LtiStatusCard assignmentId="a1" />);
    await waitFor(() => expect(asked).toBe(true));
    expect(screen.queryByText('Course gradebook (LTI)')).toBeNull();
  });

  it("shows each pupil's score, why a score was not sent, and who has not submitted", async () => {
    server.use(
      http.post('/api/v1/lti/assignment/status', async ({ request }) => {
        const { roster } = (await request.json()) as { roster: boolean };
        return HttpResponse.json({
          data: {
            lti: {
              linked: true,
              scores: [
                { submissionId: 's1', studentName: 'Sam Pupil', score: 7, maxScore: 10, state: 'sent' },
                { submissionId: 's2', studentName: 'Kim Pupil', score: 5, maxScore: 10, state: 'failed', error: 'The platform refused the score (HTTP 503). It will be tried again.' },
              ],
              ...(roster ? { roster: [{ name: 'Sam Pupil', email: 'sam@p.test', submitted: true }, { name: 'Lee Pupil', email: 'lee@p.test', submitted: false }] } : {}),
            },
          },
        });
      }),
    );
    renderWithProviders(<LtiStatusCard assignmentId="a1" />);
    expect(await screen.findByText('Course gradebook (LTI)')).toBeTruthy();
    const list = screen.getByRole('list', { name: 'Scores sent to the course' });
    expect(list.textContent).toContain('Sam Pupil — In the gradebook (7 / 10)');
    expect(list.textContent).toContain('Kim Pupil — Not sent: The platform refused the score (HTTP 503). It will be tried again.');
    await userEvent.click(screen.getByRole('button', { name: 'Who has not submitted?' }));
    expect(await screen.findByText('Not submitted yet: Lee Pupil.')).toBeTruthy();
  });
});
