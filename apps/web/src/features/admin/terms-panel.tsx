import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import { cguPublishInputSchema, LANGUAGES, type Language } from '@hygie/domain';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { errorMessage, isolate } from '../../lib/error-message';
import { formatLongDate } from '../../lib/format-date';
import { formatDateTime } from '../../lib/format-date-time';
import { validationMessage } from '../../lib/validation-message';
import { usePublishTerms, useTermsTexts, useTermsVersions } from './api/terms';

interface Section {
  title: string;
  body: string;
}
type Texts = Record<Language, Section[]>;

const EMPTY_TEXTS: Texts = { fr: [], en: [], ar: [] };
/** The direction of each language's text, whatever the interface's. */
const TEXT_DIR: Record<Language, 'ltr' | 'rtl'> = { fr: 'ltr', en: 'ltr', ar: 'rtl' };

/**
 * Today on this computer, YYYY-MM-DD: the default effective date, and what the confirmation calls
 * "later" (the server decides by its own time zone's date; its answer says which it did).
 */
function today(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The first characters of a hash, enough to tell texts apart. */
const shortHash = (hash: string) => hash.slice(0, 8);

/**
 * Which fields are refused: `version`, `publishedAt`, `fr.0.title`… by the schema, and a date
 * before the effective date of the version in force (`notBefore`; the server refuses it too). A
 * date to come is accepted: the version is then scheduled, in force from that day on.
 */
function invalidFields(input: { publishedAt: string }, notBefore: string | null): Set<string> {
  const result = cguPublishInputSchema.safeParse(input);
  const refused = new Set(
    (result.error?.issues ?? []).map((issue) =>
      (issue.path[0] === 'texts' ? issue.path.slice(1) : issue.path).map(String).join('.'),
    ),
  );
  if (notBefore !== null && input.publishedAt < notBefore) refused.add('publishedAt');
  return refused;
}

function VersionsTable() {
  const { t, i18n } = useTranslation();
  const list = useTermsVersions();
  if (list.isError) {
    return (
      <Alert severity="error" role="alert" data-testid="form-error">
        {errorMessage(i18n, list.error)}
      </Alert>
    );
  }
  if (!list.data) return <CircularProgress aria-label={t('common:loading')} />;
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table aria-labelledby="terms-title">
        <TableHead>
          <TableRow>
            <TableCell component="th" scope="col">
              {t('admin:terms.version')}
            </TableCell>
            <TableCell component="th" scope="col">
              {t('admin:terms.effectiveDate')}
            </TableCell>
            <TableCell component="th" scope="col">
              {t('admin:terms.publishedWhen')}
            </TableCell>
            <TableCell component="th" scope="col">
              {t('admin:terms.hashes')}
            </TableCell>
            <TableCell component="th" scope="col">
              {t('admin:terms.state')}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {list.data.versions.map((v) => (
            <TableRow key={v.version} data-testid="terms-row" data-version={v.version}>
              <TableCell component="th" scope="row" dir="ltr">
                {v.version}
              </TableCell>
              <TableCell>{formatLongDate(v.effectiveDate, i18n.language)}</TableCell>
              <TableCell>
                {t('admin:terms.publishedBy', {
                  date: formatDateTime(v.publishedAt, i18n.language),
                  by: v.publishedBy ? isolate(v.publishedBy.email) : t('admin:terms.byCommandLine'),
                })}
              </TableCell>
              <TableCell>
                <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
                  {LANGUAGES.map((language) => (
                    <li key={language}>
                      {t(`admin:terms.languages.${language}`)}{' '}
                      <Box
                        component="code"
                        dir="ltr"
                        title={v.hashes[language]}
                        data-testid={`terms-hash-${language}`}
                      >
                        {shortHash(v.hashes[language])}
                      </Box>
                    </li>
                  ))}
                </Box>
              </TableCell>
              <TableCell>
                {v.inForce && (
                  <Chip
                    size="small"
                    color="success"
                    variant="outlined"
                    label={t('admin:terms.inForce')}
                    data-testid="terms-in-force"
                  />
                )}
                {v.scheduled && (
                  <Chip
                    size="small"
                    color="info"
                    variant="outlined"
                    label={t('admin:terms.scheduled', {
                      date: formatLongDate(v.effectiveDate, i18n.language),
                    })}
                    data-testid="terms-scheduled"
                  />
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** One language's sections: title and text of each, added, removed and moved. */
function SectionsEditor({
  language,
  sections,
  invalid,
  onChange,
}: {
  language: Language;
  sections: Section[];
  invalid: Set<string>;
  onChange: (sections: Section[]) => void;
}) {
  const { t, i18n } = useTranslation();
  const languageName = t(`admin:terms.languages.${language}`);
  const update = (index: number, change: Partial<Section>) =>
    onChange(sections.map((s, i) => (i === index ? { ...s, ...change } : s)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...sections];
    const [moved] = next.splice(index, 1);
    if (moved) next.splice(index + by, 0, moved);
    onChange(next);
  };
  const fieldError = (path: string) =>
    invalid.has(path) ? validationMessage(i18n, 'field_required') : undefined;
  const textInput = { dir: TEXT_DIR[language], lang: language };

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      {invalid.has(language) && (
        <Alert severity="error">{t('admin:terms.noSection', { language: languageName })}</Alert>
      )}
      {sections.map((section, index) => {
        const position = index + 1;
        const id = `terms-${language}-${index}`;
        return (
          <Box
            key={index}
            component="fieldset"
            aria-labelledby={`${id}-legend`}
            data-testid="terms-section"
            sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2, m: 0, minWidth: 0 }}
          >
            <Box
              sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 1 }}
            >
              <Typography id={`${id}-legend`} component="legend" sx={{ fontWeight: 500, p: 0 }}>
                {t('admin:terms.section', { position, language: languageName })}
              </Typography>
              <Box>
                <IconButton
                  aria-label={t('admin:terms.moveUp', { position })}
                  disabled={index === 0}
                  onClick={() => move(index, -1)}
                  data-testid="terms-section-up"
                >
                  <ArrowUpward aria-hidden="true" />
                </IconButton>
                <IconButton
                  aria-label={t('admin:terms.moveDown', { position })}
                  disabled={index === sections.length - 1}
                  onClick={() => move(index, 1)}
                  data-testid="terms-section-down"
                >
                  <ArrowDownward aria-hidden="true" />
                </IconButton>
                <IconButton
                  aria-label={t('admin:terms.remove', { position })}
                  onClick={() => onChange(sections.filter((_, i) => i !== index))}
                  data-testid="terms-section-remove"
                >
                  <DeleteOutlined aria-hidden="true" />
                </IconButton>
              </Box>
            </Box>
            <Box sx={{ display: 'grid', gap: 2 }}>
              <TextField
                id={`${id}-title`}
                label={t('admin:terms.sectionTitle')}
                required
                value={section.title}
                onChange={(e) => update(index, { title: e.target.value })}
                error={!!fieldError(`${language}.${index}.title`)}
                helperText={fieldError(`${language}.${index}.title`)}
                slotProps={{ htmlInput: { ...textInput, maxLength: 200 } }}
              />
              <TextField
                id={`${id}-body`}
                label={t('admin:terms.sectionBody')}
                required
                multiline
                minRows={3}
                value={section.body}
                onChange={(e) => update(index, { body: e.target.value })}
                error={!!fieldError(`${language}.${index}.body`)}
                helperText={fieldError(`${language}.${index}.body`)}
                slotProps={{ htmlInput: { ...textInput, maxLength: 10_000 } }}
              />
            </Box>
          </Box>
        );
      })}
      <Box>
        <Button
          variant="outlined"
          onClick={() => onChange([...sections, { title: '', body: '' }])}
          data-testid="terms-section-add"
        >
          {t('admin:terms.add', { language: languageName })}
        </Button>
      </Box>
    </Box>
  );
}

/** The text as users will read it, in one language. */
function Preview({ language, sections }: { language: Language; sections: Section[] }) {
  const { t } = useTranslation();
  return (
    <Box
      component="section"
      aria-labelledby="terms-preview-title"
      data-testid="terms-preview"
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2 }}
    >
      <Typography id="terms-preview-title" component="h4" variant="subtitle1" sx={{ mb: 1 }}>
        {t('admin:terms.previewTitle', { language: t(`admin:terms.languages.${language}`) })}
      </Typography>
      <Box lang={language} dir={TEXT_DIR[language]}>
        {sections.map((section, index) => (
          <Box key={index} sx={{ mb: 2 }}>
            <Typography component="h5" variant="subtitle2">
              {`${index + 1}. ${section.title}`}
            </Typography>
            <Typography variant="body2" sx={{ whiteSpace: 'pre-line' }}>
              {section.body}
            </Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
}

/**
 * Terms of use (admin): the published versions (date, who, hashes, the one in force, the one
 * scheduled) and the publication of a new one — its effective date (today: in force at once; later:
 * scheduled for that day), its text in every language, section by section, starting from the
 * version in force, previewed, confirmed (every user accepts it again at the next sign-in from
 * its date on).
 */
export function TermsPanel() {
  const { t, i18n } = useTranslation();
  const list = useTermsVersions();
  const inForceVersion = list.data?.versions.find((v) => v.inForce);
  const inForce = inForceVersion?.version ?? null;
  const notBefore = inForceVersion?.effectiveDate ?? null;
  const waiting = list.data?.versions.find((v) => v.scheduled) ?? null;
  const current = useTermsTexts(inForce);
  const publish = usePublishTerms();
  const [version, setVersion] = useState('');
  const [effectiveDate, setEffectiveDate] = useState(today);
  // What the admin typed; until then, the text in force (the new version starts from it).
  const [edited, setTexts] = useState<Texts | null>(null);
  const texts = edited ?? current.data?.texts ?? EMPTY_TEXTS;
  const [language, setLanguage] = useState<Language>('fr');
  const [preview, setPreview] = useState(false);
  const [invalid, setInvalid] = useState<Set<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [published, setPublished] = useState<{
    version: string;
    publishedAt: string;
    scheduled: boolean;
  } | null>(null);

  const input = { version: version.trim(), publishedAt: effectiveDate, texts };
  const fieldError = (path: string) =>
    invalid.has(path) ? validationMessage(i18n, 'field_required') : undefined;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    publish.reset();
    setPublished(null);
    const refused = invalidFields(input, notBefore);
    setInvalid(refused);
    if (refused.size > 0) {
      // Show the first language with a refused field.
      const first = LANGUAGES.find((l) => [...refused].some((path) => path.split('.')[0] === l));
      if (first && !refused.has('version') && !refused.has('publishedAt')) setLanguage(first);
      return;
    }
    setConfirming(true);
  };

  const confirm = () =>
    publish.mutate(input, {
      onSuccess: (answer) => {
        setPublished(answer);
        setVersion('');
      },
      onSettled: () => setConfirming(false),
    });

  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <Typography id="terms-title" variant="h6" component="h2">
        {t('admin:terms.title')}
      </Typography>
      <VersionsTable />

      <Paper
        variant="outlined"
        component="section"
        aria-labelledby="terms-publish-title"
        sx={{ p: { xs: 2, sm: 3 } }}
      >
        <Typography id="terms-publish-title" variant="h6" component="h3" sx={{ mb: 1 }}>
          {t('admin:terms.publish')}
        </Typography>
        <Typography sx={{ mb: 2 }}>{t('admin:terms.publishIntro')}</Typography>
        {published && (
          <Alert
            severity="success"
            role="status"
            sx={{ mb: 2 }}
            data-testid="terms-published"
            onClose={() => setPublished(null)}
          >
            {published.scheduled
              ? t('admin:terms.publishedScheduled', {
                  version: isolate(published.version),
                  date: formatLongDate(published.publishedAt, i18n.language),
                })
              : t('admin:terms.published', { version: isolate(published.version) })}
          </Alert>
        )}
        {publish.isError && (
          <Alert severity="error" role="alert" sx={{ mb: 2 }} data-testid="form-error">
            {errorMessage(i18n, publish.error)}
          </Alert>
        )}
        {invalid.size > 0 && (
          <Alert severity="error" role="alert" sx={{ mb: 2 }} data-testid="form-error">
            {t('admin:terms.invalid')}
          </Alert>
        )}
        {current.isError && (
          <Alert severity="warning" sx={{ mb: 2 }}>
            {errorMessage(i18n, current.error)}
          </Alert>
        )}
        <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2 }}>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr' } }}>
            <TextField
              id="terms-version"
              label={t('admin:terms.version')}
              required
              value={version}
              onChange={(e) => setVersion(e.target.value)}
              error={!!fieldError('version')}
              helperText={fieldError('version') ?? t('admin:terms.versionHelp')}
              slotProps={{ htmlInput: { dir: 'ltr', maxLength: 40, spellCheck: false } }}
            />
            <TextField
              id="terms-effective-date"
              label={t('admin:terms.effectiveDate')}
              type="date"
              required
              value={effectiveDate}
              onChange={(e) => setEffectiveDate(e.target.value)}
              error={!!fieldError('publishedAt')}
              helperText={
                fieldError('publishedAt')
                  ? notBefore
                    ? t('admin:terms.dateTooEarly', {
                        date: formatLongDate(notBefore, i18n.language),
                      })
                    : t('admin:terms.dateInvalid')
                  : t('admin:terms.dateHelp')
              }
              slotProps={{
                inputLabel: { shrink: true },
                htmlInput: { dir: 'ltr', min: notBefore ?? undefined },
              }}
            />
          </Box>
          <Box sx={{ borderBottom: 1, borderColor: 'divider' }}>
            <Tabs
              value={language}
              onChange={(_event, value: Language) => setLanguage(value)}
              aria-label={t('admin:terms.languagesLabel')}
              variant="scrollable"
              allowScrollButtonsMobile
            >
              {LANGUAGES.map((l) => (
                <Tab
                  key={l}
                  value={l}
                  label={t(`admin:terms.languages.${l}`)}
                  id={`terms-tab-${l}`}
                  aria-controls={l === language ? `terms-panel-${l}` : undefined}
                  data-testid={`terms-tab-${l}`}
                />
              ))}
            </Tabs>
          </Box>
          <Box
            role="tabpanel"
            id={`terms-panel-${language}`}
            aria-labelledby={`terms-tab-${language}`}
            sx={{ display: 'grid', gap: 2 }}
          >
            <SectionsEditor
              language={language}
              sections={texts[language]}
              invalid={invalid}
              onChange={(sections) => setTexts({ ...texts, [language]: sections })}
            />
            <Box>
              <Button
                onClick={() => setPreview(!preview)}
                aria-expanded={preview}
                aria-controls={preview ? 'terms-preview' : undefined}
                data-testid="terms-preview-toggle"
              >
                {t(preview ? 'admin:terms.hidePreview' : 'admin:terms.showPreview')}
              </Button>
            </Box>
            {preview && (
              <Box id="terms-preview">
                <Preview language={language} sections={texts[language]} />
              </Box>
            )}
          </Box>
          <Box>
            <Button type="submit" variant="contained" data-testid="terms-submit">
              {t('admin:terms.submit')}
            </Button>
          </Box>
        </Box>
      </Paper>

      <ConfirmDialog
        open={confirming}
        title={t('admin:terms.confirmTitle', { version: isolate(input.version) })}
        confirmLabel={t('admin:terms.confirm')}
        pending={publish.isPending}
        onConfirm={confirm}
        onClose={() => setConfirming(false)}
      >
        {t(effectiveDate > today() ? 'admin:terms.confirmScheduled' : 'admin:terms.confirmText', {
          date: formatLongDate(effectiveDate, i18n.language),
        })}
        {waiting &&
          ` ${t('admin:terms.confirmReplaces', {
            version: isolate(waiting.version),
            date: formatLongDate(waiting.effectiveDate, i18n.language),
          })}`}
      </ConfirmDialog>
    </Box>
  );
}
