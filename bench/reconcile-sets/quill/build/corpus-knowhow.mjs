// Source of the Quill knowhow corpus (written by hand for this set).
// File names follow maestro-flow: {PREFIX}-{YYYYMMDD}-{slugify(title)[:40]}.md, or
// {PREFIX}-{YYYYMMDD}-{HHMM}.md when the title has no [a-z0-9] characters (CJK-only titles).
// The canonical (wiki) id is "knowhow-" + slugify(file stem); build.mjs derives both.
// supersededBy = key of the successor doc (written status: "deprecated", supersededBy: <wiki id>).

export const KNOWHOW = [
  {
    key: 'kh-secret-rotate-manual', type: 'recipe', category: 'security', created: '2026-01-12T10:00:00.000Z',
    title: 'Rotate a Key Vault secret by hand', keywords: ['key-vault', 'secret', 'rotation'],
    supersededBy: 'kh-secret-rotate',
    body: `1. Create a new version of the secret in the portal under \`kv-quill-<env>\`.
2. Restart every deployment that mounts it with \`kubectl rollout restart deploy -n quill-<service>\`.
3. Disable the old version after one hour.`,
  },
  {
    key: 'kh-secret-rotate', type: 'recipe', category: 'security', created: '2026-03-03T09:30:00.000Z',
    title: 'Rotate a Key Vault secret with quillctl', keywords: ['key-vault', 'secret', 'rotation', 'quillctl'],
    body: `Rotate a secret without editing anything in the portal.

1. Run \`quillctl secret rotate <name> --env <env>\`; it writes a new version to \`kv-quill-<env>\` and tags it with your ticket id.
2. The Secrets Store CSI driver picks the new version up within 2 minutes (rotation poll interval); pods that read the secret only at start-up are restarted by the command.
3. Check \`quillctl secret status <name>\` until every consumer reports the new version.
4. The old version is disabled automatically after 24 hours.`,
  },
  {
    key: 'kh-onboard-clinic', type: 'recipe', category: 'operations', created: '2026-02-02T13:00:00.000Z',
    title: 'Onboard a new clinic', keywords: ['clinic', 'onboarding', 'tenant'],
    body: `1. Create the clinic with \`quillctl clinic create --name <name> --tz <IANA zone>\`; never guess the zone from the state.
2. Import providers and rooms from the clinic's spreadsheet with \`quillctl clinic import <file.csv>\`.
3. Set opening hours and slot length in front-desk under Settings → Schedule.
4. If the clinic sends HL7, follow the "Add an HL7 sender" recipe.
5. Book and cancel a test appointment with the synthetic patient \`Test Patient 001\`.`,
  },
  {
    key: 'kh-hl7-sender', type: 'recipe', category: 'integration', created: '2026-02-10T15:20:00.000Z',
    title: 'Add an HL7 sender', keywords: ['hl7', 'mllp', 'sender', 'integration'],
    body: `1. Add the sender to \`hl7-listener/config/hl7-senders.yaml\` with its MSH-3 application, MSH-4 facility and charset.
2. Open the sender's source IP range in \`infra/hl7-listener.bicep\` (the MLLP port is 2575).
3. Ask the sender for one sample of each message type and add them under \`src/test/resources/samples/\`.
4. Deploy to staging and watch \`hl7_inbox\` for the first ACKed messages.`,
  },
  {
    key: 'kh-pitr', type: 'recipe', category: 'database', created: '2026-03-10T08:00:00.000Z',
    title: 'Point-in-time restore of the booking database', keywords: ['restore', 'pitr', 'postgres', 'dr'],
    body: `1. Pick the restore time in UTC, at least 5 minutes before the bad change.
2. Run \`az postgres flexible-server restore --source-server psql-booking-prod --restore-time <UTC> --name psql-booking-restore\`.
3. Point \`booking-svc\` at the restored server through the \`BOOKING_DB_HOST\` secret in Key Vault, then restart it.
4. Expect about 45–50 minutes for the restore itself.
5. Delete the old server only after the incident is closed.`,
  },
  {
    key: 'kh-local-dev', type: 'tip', category: 'tooling', created: '2026-01-19T11:00:00.000Z',
    title: '本地启动整套服务', keywords: ['local', 'docker-compose', 'quarkus-dev'],
    body: `本地开发时用 \`make up\` 启动 docker compose 中的 PostgreSQL、Cosmos DB emulator、Redis 和 Service Bus emulator，然后在各服务目录下运行 \`quarkus dev\`。

- front-desk 用 \`pnpm nx serve front-desk\`，默认代理到 \`localhost:8080\`。
- Cosmos DB emulator 首次启动需要 2–3 分钟，证书要导入到 JDK truststore。
- 不要把本地 \`.env\` 提交到仓库。`,
  },
  {
    key: 'kh-loki', type: 'tip', category: 'observability', created: '2026-02-12T16:00:00.000Z',
    title: 'Useful Loki queries', keywords: ['loki', 'logql', 'grafana'],
    body: `- All errors of one service in the last hour: \`{namespace="quill-booking"} | json | level="ERROR"\`.
- One booking end to end: filter by \`traceId\`, which front-desk shows in the error dialog.
- Count 5xx per route: \`sum by (route) (count_over_time({namespace="quill-gateway"} | json | status>=500 [5m]))\`.
- Loki keeps logs for 30 days; older logs are in the \`logs-archive\` storage account.`,
  },
  {
    key: 'kh-cosmos-decision', type: 'decision', category: 'architecture', created: '2026-01-05T10:00:00.000Z', status: 'accepted',
    title: 'Use Cosmos DB for availability', keywords: ['cosmos-db', 'availability', 'decision', 'adr'],
    body: `## Context
Availability (free slots per provider) is read far more often than it is written and is always queried per clinic.

## Decision
Store availability in Cosmos DB (NoSQL API), container \`availability\`, partition key \`/clinicId\`. Bookings stay in PostgreSQL.

## Consequences
- Slot reads are single-partition and cheap.
- Cross-clinic reports must use the change feed into the analytics store, not queries.`,
  },
  {
    key: 'kh-postmortem-template', type: 'template', category: 'operations', created: '2026-02-20T09:00:00.000Z',
    title: 'Incident postmortem template', keywords: ['postmortem', 'incident', 'template'],
    body: `# <Incident title> (Sev-<n>)

- Date, duration, detection time:
- Impact (clinics, patients, bookings affected):
- Timeline (UTC):
- Root cause:
- What went well / what went badly:
- Action items (Jira ticket, owner, due date):

Do not paste PHI or tokens into the postmortem.`,
  },
  {
    key: 'kh-fhir-status-ref', type: 'reference', category: 'integration', created: '2026-02-25T10:30:00.000Z',
    title: 'FHIR Appointment status mapping', keywords: ['fhir', 'appointment', 'status', 'mapping'],
    body: `| Quill status | FHIR \`Appointment.status\` |
|---|---|
| held | pending |
| confirmed | booked |
| checked-in | arrived |
| completed | fulfilled |
| cancelled | cancelled |
| no-show | noshow |

\`fhir-gateway\` never sends \`proposed\` or \`waitlist\` to an EHR.`,
  },
  {
    key: 'kh-release', type: 'recipe', category: 'release', created: '2026-01-26T08:30:00.000Z',
    title: '后端发布流程', keywords: ['release', 'gitlab', 'canary'],
    body: `1. 周二、周四 13:00 UTC 之前把要发布的 MR 合入 \`main\`，并打上 \`release-train\` 标签。
2. release manager 在 GitLab 中运行 \`deploy:prod\` job，并在 protected environment 中批准。
3. 先发 10% canary，观察 Grafana \`rollout\` 看板 30 分钟。
4. 错误率正常则 promote 到 100%，在 #releases 频道发布说明。`,
  },
  {
    key: 'kh-app-release', type: 'recipe', category: 'release', created: '2026-02-09T14:00:00.000Z',
    title: '患者 App 发布', keywords: ['flutter', 'release', 'app-store', 'google-play'],
    body: `1. 在 \`release/<version>\` 分支上更新 \`pubspec.yaml\` 的版本号和 build number。
2. GitLab 的 \`mobile:release\` job 用 fastlane 构建并上传到 TestFlight 和 Play Console internal track。
3. QA 在真机上跑完回归清单后，提交商店审核。
4. 审核通过后按 5% / 25% / 100% 分阶段放量。`,
  },
  {
    key: 'kh-access-request', type: 'recipe', category: 'compliance', created: '2026-03-05T10:00:00.000Z',
    title: 'Handle a patient access request', keywords: ['hipaa', 'right-of-access', 'export', 'phi'],
    body: `A patient may ask for a copy of their data (HIPAA right of access). We must answer within 30 days.

1. The privacy team opens a Jira ticket in the PRIV project; engineers never act on a request sent to them directly.
2. Run \`quillctl patient export <patientId> --ticket PRIV-<n>\`; it writes an encrypted archive to the \`phi-exports\` storage account.
3. The privacy team sends the archive; the link expires after 7 days.`,
  },
];
