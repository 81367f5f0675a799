/** The dashboard's one stylesheet, served from /dashboard.css (the pages allow no inline style). */
export const DASHBOARD_CSS = `
:root { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #1a202c; background: #f7fafc; }
body { margin: 0; }
header { background: #1a365d; color: #fff; padding: 0.6rem 1.2rem; display: flex; gap: 1.2rem; align-items: center; flex-wrap: wrap; }
header a { color: #fff; text-decoration: none; font-weight: 600; }
header form { display: inline-flex; gap: 0.4rem; margin: 0; }
header .spacer { flex: 1; }
main { padding: 1rem 1.2rem 3rem; max-width: 1100px; }
h1 { font-size: 1.5rem; margin: 0.4rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 1.8rem 0 0.6rem; border-bottom: 1px solid #cbd5e0; padding-bottom: 0.2rem; }
table { border-collapse: collapse; margin: 0.4rem 0 0.8rem; background: #fff; }
th, td { border: 1px solid #e2e8f0; padding: 0.3rem 0.6rem; text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.chart { max-width: 100%; height: auto; background: #fff; border: 1px solid #e2e8f0; font-size: 12px; }
.tick { fill: #4a5568; font-size: 11px; }
figure { margin: 0.4rem 0; }
figcaption .key { margin-right: 0.8rem; font-size: 0.85rem; }
.badge { display: inline-block; padding: 0.05rem 0.45rem; border-radius: 0.6rem; font-size: 0.8rem; background: #e2e8f0; }
.badge.bad, tr.problem td:first-child { background: #fed7d7; color: #742a2a; }
.badge.warn { background: #feebc8; color: #7b341e; }
.badge.good { background: #c6f6d5; color: #22543d; }
tr.problem { outline: 2px solid #c53030; }
table.senders { font-size: 0.9rem; }
table.senders td:first-child strong { white-space: nowrap; }
section.sender-history h3 { margin-bottom: 0.3rem; }
.notice { padding: 0.6rem 0.8rem; border-left: 4px solid #2b6cb0; background: #ebf8ff; margin: 0.8rem 0; }
.error { padding: 0.6rem 0.8rem; border-left: 4px solid #c53030; background: #fff5f5; margin: 0.8rem 0; }
.actions form { display: inline-block; margin-right: 0.6rem; }
button { padding: 0.35rem 0.9rem; border: 1px solid #2b6cb0; background: #2b6cb0; color: #fff; border-radius: 4px; cursor: pointer; }
button.danger { background: #c53030; border-color: #c53030; }
input[type=text], input[type=password], textarea { padding: 0.35rem; border: 1px solid #a0aec0; border-radius: 4px; }
textarea { width: 100%; max-width: 40rem; min-height: 4rem; }
.muted { color: #718096; }
.wa-bubble { max-width: 26rem; background: #fff; border: 1px solid #e2e8f0; border-radius: 0.6rem; padding: 0.5rem 0.75rem; margin: 0.4rem 0; box-shadow: 0 1px 1px rgba(0, 0, 0, 0.08); }
.wa-bubble p { margin: 0 0 0.35rem; white-space: pre-wrap; overflow-wrap: anywhere; }
.wa-header { font-weight: 600; }
.wa-footer { color: #718096; font-size: 0.85rem; }
.wa-buttons { list-style: none; padding: 0; margin: 0.4rem -0.75rem -0.5rem; }
.wa-buttons li { border-top: 1px solid #e2e8f0; padding: 0.4rem 0.75rem; text-align: center; color: #2b6cb0; overflow-wrap: anywhere; }
ol.timeline { list-style: none; padding: 0; }
ol.timeline li { padding: 0.35rem 0; border-bottom: 1px solid #e2e8f0; }
ol.timeline .at { color: #4a5568; font-variant-numeric: tabular-nums; margin-right: 0.6rem; }
`;
