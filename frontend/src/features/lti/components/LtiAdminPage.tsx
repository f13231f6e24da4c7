import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { PageSpinner } from '../../../components/PageSpinner';
import { errorMessage } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { deletePlatform, getOperatorLti, rotateKey, savePlatform, type Platform } from '../api/lti';

const EMPTY = { name: '', issuer: '', clientId: '', deploymentIds: '', authLoginUrl: '', tokenUrl: '', jwksUrl: '' };
const FIELDS: [keyof typeof EMPTY, string][] = [
  ['name', 'Name (for you)'],
  ['issuer', 'Issuer'],
  ['clientId', 'Client id'],
  ['deploymentIds', 'Deployment ids (comma-separated)'],
  ['authLoginUrl', 'Auth login URL'],
  ['tokenUrl', 'Token URL'],
  ['jwksUrl', 'JWKS URL'],
];

/** `/admin/lti`: operators register LMS platforms and copy Markwell's tool configuration (docs/lti.md). */
export function LtiAdminPage() {
  useDocumentTitle('LTI platforms');
  const client = useQueryClient();
  const view = useQuery({ queryKey: ['operator', 'lti'], queryFn: getOperatorLti });
  const [form, setForm] = useState(EMPTY);
  const refresh = () => void client.invalidateQueries({ queryKey: ['operator', 'lti'] });
  const save = useMutation({
    mutationFn: () =>
      savePlatform({ ...form, deploymentIds: form.deploymentIds.split(',').map((d) => d.trim()).filter(Boolean) } as Platform),
    onSuccess: () => {
      setForm(EMPTY);
      refresh();
    },
  });
  const remove = useMutation({ mutationFn: deletePlatform, onSuccess: refresh });
  const rotate = useMutation({ mutationFn: rotateKey, onSuccess: refresh });

  if (view.isPending) return <PageSpinner label="Loading" />;
  if (view.isError) return <Alert severity="error">{errorMessage(view.error, 'Could not load the LTI settings.')}</Alert>;
  const { tool, platforms, keyIds } = view.data;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <Stack spacing={3} sx={{ maxWidth: 860 }}>
      <Typography variant="h1" sx={{ fontSize: '1.75rem' }}>
        LTI platforms
      </Typography>
      <Card>
        <CardContent>
          <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 1 }}>
            Markwell&apos;s tool configuration
          </Typography>
          <dl>
            <dt>Login URL</dt>
            <dd><code>{tool.loginUrl}</code></dd>
            <dt>Redirect / launch URI</dt>
            <dd><code>{tool.redirectUri}</code></dd>
            <dt>JWKS URL</dt>
            <dd><code>{tool.jwksUrl}</code></dd>
            <dt>Signing keys published</dt>
            <dd>{keyIds.join(', ')}</dd>
          </dl>
          <Typography variant="subtitle2">Canvas JSON configuration</Typography>
          <pre style={{ overflowX: 'auto', fontSize: 12 }}>{JSON.stringify(tool.canvas, null, 2)}</pre>
          <Button variant="outlined" onClick={() => rotate.mutate()} loading={rotate.isPending}>
            Rotate signing key
          </Button>
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 1 }}>
            Registered platforms
          </Typography>
          {platforms.length === 0 && <Typography color="text.secondary">None yet.</Typography>}
          <Stack spacing={1}>
            {platforms.map((p) => (
              <Stack key={p.id} direction="row" spacing={2} sx={{ alignItems: 'center' }}>
                <Typography sx={{ flex: 1 }}>
                  <strong>{p.name || p.issuer}</strong> — {p.issuer}, client {p.clientId}, deployments {p.deploymentIds.join(', ')}
                </Typography>
                <Button color="error" onClick={() => p.id && remove.mutate(p.id)}>
                  Remove
                </Button>
              </Stack>
            ))}
          </Stack>
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 1 }}>
            Register a platform
          </Typography>
          <Stack component="form" spacing={2} onSubmit={onSubmit} aria-label="Register a platform">
            {save.isError && <Alert severity="error">{errorMessage(save.error, 'Could not register the platform.')}</Alert>}
            {FIELDS.map(([key, label]) => (
              <TextField key={key} label={label} value={form[key]} onChange={(e) => setForm({ ...form, [key]: e.target.value })} />
            ))}
            <div>
              <Button type="submit" variant="contained" loading={save.isPending}>
                Register
              </Button>
            </div>
          </Stack>
        </CardContent>
      </Card>
    </Stack>
  );
}
