/**
 * The frame of the extension's webview pages (results, plan): a page under
 * a Content-Security-Policy that allows only the webview's own styles and
 * inline images, in the editor's theme colors, and no scripts but the one
 * given with its nonce (the plan view's zoom).
 */

const BASE_STYLE = `body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0 12px; }
h2 { font-size: 1.1em; } h3 { font-size: 1em; margin: 12px 0 4px; } .dims, .note, .meta { color: var(--vscode-descriptionForeground); font-weight: normal; }`;

export function webviewPage(title: string, cspSource: string, style: string, body: string, script?: { nonce: string; code: string }): string {
  const scriptSrc = script ? ` script-src 'nonce-${script.nonce}';` : "";
  const scriptTag = script ? `\n<script nonce="${script.nonce}">${script.code}</script>` : "";
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${cspSource} 'unsafe-inline'; img-src ${cspSource} data:;${scriptSrc}">
<title>${title}</title>
<style>
${BASE_STYLE}
${style}
</style></head>
<body>
${body}${scriptTag}
</body></html>`;
}
