import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../testing/server';
import { DemoModelBanner } from './DemoModelBanner';

function renderBanner() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <DemoModelBanner />
    </QueryClientProvider>,
  );
}

describe('demo model banner', () => {
  it('says plainly that results come from the demo model', async () => {
    server.use(http.get('/api/v1/app-config', () => HttpResponse.json({ data: { demoModel: true } })));
    renderBanner();
    expect(await screen.findByText(/come from Markwell's built-in demo model/)).toBeInTheDocument();
  });

  it('is absent with a real AI provider', async () => {
    let asked = false;
    server.use(
      http.get('/api/v1/app-config', () => {
        asked = true;
        return HttpResponse.json({ data: { demoModel: false } });
      }),
    );
    renderBanner();
    await new Promise((r) => setTimeout(r, 50));
    expect(asked).toBe(true);
    expect(screen.queryByText(/demo model/)).not.toBeInTheDocument();
  });
});
