// Source of the "Harbor" knowhow corpus (written by hand for this set).
// File names follow maestro-flow: {PREFIX}-{YYYYMMDD}-{slugify(title)[:40]}.md, or
// {PREFIX}-{YYYYMMDD}-{HHMM}.md when the title has no [a-z0-9] characters (CJK-only titles).
// The canonical (wiki) id is "knowhow-" + slugify(file stem); build.mjs derives both.
// supersededBy = key of the successor doc (written status: "deprecated", supersededBy: <wiki id>).

export const KNOWHOW = [
  {
    key: 'kh-dlq-manual', type: 'recipe', category: 'operations', created: '2026-01-19T09:40:00.000Z',
    title: 'Replay dead-lettered Pub/Sub messages by hand', keywords: ['pubsub', 'dead-letter', 'replay'],
    supersededBy: 'kh-dlq-replay',
    body: `1. Pull the messages with \`gcloud pubsub subscriptions pull <dlq-subscription> --limit=100 --format=json > dlq.json\`.
2. Fix the consumer and deploy it.
3. Republish each message body with \`gcloud pubsub topics publish <topic> --message=...\`.
4. Ack the pulled messages on the dead-letter subscription.`,
  },
  {
    key: 'kh-dlq-replay', type: 'recipe', category: 'operations', created: '2026-03-02T10:15:00.000Z',
    title: 'Replay dead-lettered Pub/Sub messages', keywords: ['pubsub', 'dead-letter', 'replay', 'harborctl'],
    body: `Use this after the consumer bug that sent messages to the dead-letter topic is fixed and deployed.

1. Check the backlog: \`harborctl pubsub dlq stats --subscription <name>\`.
2. Dry run: \`harborctl pubsub replay --subscription <name> --since 6h --dry-run\` and read the summary.
3. Replay: run the same command without \`--dry-run\`. It republishes with the original attributes and ordering key.
4. Watch the consumer's error rate in Datadog for 15 minutes.
5. Note the replay in the incident ticket.

Do not republish with \`gcloud pubsub topics publish\`: it drops the attributes, including \`eventId\`, so idempotent subscribers cannot deduplicate.`,
  },
  {
    key: 'kh-rollback', type: 'recipe', category: 'release', created: '2026-04-10T14:00:00.000Z',
    title: 'Roll back a service in production', keywords: ['rollback', 'cloud-deploy', 'incident'],
    body: `1. Announce the rollback in #incidents and name an incident lead.
2. Find the last good release: \`gcloud deploy releases list --delivery-pipeline=<service> --region=europe-west4\`.
3. Roll back: \`gcloud deploy targets rollback prod --delivery-pipeline=<service> --region=europe-west4\`.
4. Watch the service dashboard in Datadog (error rate, p95 latency) for 15 minutes.
5. If the release contained a Flyway migration, do not roll the schema back; the previous release is compatible by rule.
6. Open a revert PR on \`main\` so the next release does not bring the change back.`,
  },
  {
    key: 'kh-gdpr-erasure', type: 'recipe', category: 'privacy', created: '2026-02-25T11:30:00.000Z',
    title: 'Handle a GDPR erasure request for a driver', keywords: ['gdpr', 'erasure', 'privacy', 'driver'],
    body: `Erasure requests arrive as tickets in the PRIV JIRA project and must be completed within 30 days.

1. Confirm the driver's identity with the support team; note the \`driverId\` (\`drv_…\`) in the ticket.
2. Run \`harborctl gdpr erase --driver <driverId> --dry-run\` and attach the summary to the ticket.
3. Run it again without \`--dry-run\`. It deletes the profile, documents and raw GPS tracks, and pseudonymises the driver in trip summaries.
4. Trigger the \`gdpr_erasure\` Airflow DAG so Snowflake copies are pseudonymised too.
5. Backups expire on their own after 35 days; say so in the reply to the driver.
6. Close the ticket with the date of completion.`,
  },
  {
    key: 'kh-dbt-model', type: 'recipe', category: 'data', created: '2026-03-06T08:50:00.000Z',
    title: 'Add a dbt model', keywords: ['dbt', 'snowflake', 'model'],
    body: `1. Put the model in \`models/<layer>/<domain>/\` (layers: \`staging\`, \`intermediate\`, \`marts\`); staging models select from one source only.
2. Name it \`stg_<source>__<table>\`, \`int_<purpose>\` or \`<domain>_<entity>\` in marts.
3. Add the model to the layer's \`schema.yml\` with a description and the primary-key tests.
4. Run \`dbt build --select <model>+\` against your dev schema (\`DBT_DEV_<USER>\`).
5. Tag marts that feed dashboards with \`tags: ['bi']\` so the nightly job picks them up.`,
  },
  {
    key: 'kh-backlog', type: 'tip', category: 'operations', created: '2026-03-13T16:20:00.000Z',
    title: 'A Pub/Sub subscription backlog keeps growing', keywords: ['pubsub', 'backlog', 'on-call'],
    body: `1. Open the Datadog monitor and check \`subscription/num_undelivered_messages\` and the oldest unacked message age.
2. If the consumer's error rate is up, the backlog is a symptom: look at Sentry first.
3. If errors are normal, the consumer is too slow: scale the Deployment (\`kubectl scale deploy/<name> --replicas=<n>\`), keeping replicas × pool size under the Cloud SQL limit.
4. If the oldest message is older than 6 hours, tell the owning team; messages expire after 7 days.`,
  },
  {
    key: 'kh-app-release', type: 'recipe', category: 'release', created: '2026-03-20T09:05:00.000Z',
    title: 'Release the driver app', keywords: ['driver-app', 'eas', 'release', 'play-store', 'testflight'],
    body: `1. Create \`release/app-<version>\` from \`main\` and bump the version in \`app.config.ts\`.
2. Build with \`eas build --profile production --platform all\`; the build hook uploads source maps to Sentry.
3. Submit with \`eas submit\` to the Play Store internal track and TestFlight.
4. After QA sign-off, start the Google Play staged rollout at 10% and watch crash-free sessions in Sentry for 24 hours.
5. Raise to 50%, then 100% a day later. For JavaScript-only fixes you may ship an EAS Update to the \`production\` channel instead of a store build.`,
  },
  {
    key: 'kh-new-service', type: 'template', category: 'platform', created: '2026-02-12T13:45:00.000Z',
    title: 'Service README template', keywords: ['template', 'service', 'readme'],
    body: `# <service-name>

**Owner:** <team> · **On-call:** <rotation> · **Tier:** <1-3>

## What it does
One paragraph.

## APIs and events
- REST: \`/v1/...\` (OpenAPI in \`api/openapi.yaml\`)
- Publishes: \`<domain>.<entity>.<event>.v1\`
- Consumes: \`...\`

## Dependencies
Cloud SQL database, Memorystore, other services.

## Runbook
Dashboards, alerts, common failures and how to fix them.`,
  },
  {
    key: 'kh-postmortem', type: 'template', category: 'incidents', created: '2026-02-16T10:00:00.000Z',
    title: 'Postmortem template', keywords: ['postmortem', 'incident', 'template'],
    body: `# Postmortem: <title> (<SEV>, <date>)

## Summary
What happened, for how long, who was affected.

## Timeline (UTC)
- hh:mm detection …
- hh:mm mitigation …

## Root cause
Blameless; name systems and decisions, not people.

## What went well / what went badly

## Action items
| action | owner | JIRA |
|---|---|---|`,
  },
  {
    key: 'kh-pubsub-decision', type: 'decision', category: 'architecture', created: '2026-01-11T15:30:00.000Z',
    status: 'accepted', title: 'Pub/Sub instead of Kafka for domain events', keywords: ['pubsub', 'kafka', 'decision', 'events'],
    body: `## Context
Services need asynchronous domain events. The team has no Kafka operators and runs on GCP.

## Decision
Use Google Cloud Pub/Sub for all domain events. Do not run Kafka, self-managed or Confluent Cloud.

## Consequences
- No log compaction or replay from offset; replays use the dead-letter tooling and snapshots.
- Ordering only per ordering key.
- Delivery is at least once, so consumers are idempotent.`,
  },
  {
    key: 'kh-slo-ref', type: 'reference', category: 'operations', created: '2026-04-01T12:00:00.000Z',
    title: 'Service SLOs', keywords: ['slo', 'latency', 'availability', 'error-budget'],
    body: `| service | availability (30 d) | latency objective |
|---|---|---|
| partner-api | 99.9% | p95 < 400 ms |
| dispatch | 99.9% | p95 < 300 ms for assignment |
| routing | 99.5% | p95 < 1.5 s for route calculation |
| tracking-ingest | 99.95% | ping accepted within 2 s |
| ops-console BFF | 99.5% | p95 < 500 ms |

When a service has used 50% of its monthly error budget, feature work for that service pauses until the trend is fixed.`,
  },
  {
    key: 'kh-zh-pool-sizing', type: 'tip', category: 'database', created: '2026-03-27T07:30:00.000Z',
    title: 'HikariCP 连接池大小怎么定', keywords: ['hikari', 'cloud-sql', 'connections'],
    body: `1. 先查实例上限：\`SHOW max_connections;\`，预留 20 个连接给迁移和运维。
2. 每个 pod 的 \`maximumPoolSize\` 从 10 开始，\`minimumIdle\` 设为与之相同。
3. 用 \`(max_connections - 20) / 副本数上限\` 反推每个 pod 最多能用多少连接，HPA 的 \`maxReplicas\` 不能超过这个值。
4. 在 Datadog 看 \`hikaricp.connections.pending\`，持续大于 0 才考虑加大连接池。`,
  },
  {
    key: 'kh-zh-backfill', type: 'recipe', category: 'data', created: '2026-04-16T03:25:00.000Z',
    title: '数据回填步骤', keywords: ['airflow', 'backfill', 'dbt'],
    body: `1. 在 #data-platform 频道说明回填的 DAG、日期范围和预计的 Snowflake 用量。
2. 先在 staging 的 Composer 环境用 \`airflow dags backfill <dag_id> -s <start> -e <end> --dry-run\` 试跑。
3. 生产回填按 7 天一个批次执行，每批完成后检查 dbt 测试结果。
4. 回填期间把该 DAG 的 \`max_active_runs\` 设为 2，避免挤占每日任务。
5. 完成后在工单中记录实际耗费的 credits。`,
  },
  {
    key: 'kh-flag-cleanup', type: 'tip', category: 'platform', created: '2026-05-05T10:40:00.000Z',
    title: 'Clean up a LaunchDarkly flag', keywords: ['feature-flags', 'launchdarkly', 'cleanup'],
    body: `1. Check in LaunchDarkly that the flag has served one variation to 100% of traffic for at least 14 days.
2. Search the code for the flag key (\`rg '<flag-key>'\`) in all repos, including the driver app.
3. Remove the losing branch and the flag read in one PR; reference the flag key in the PR title.
4. After the PR is deployed everywhere, archive the flag in LaunchDarkly (do not delete it, so the audit log stays).`,
  },
];
