-- Headless Neovim (0.7+) as an independent LSP client of the DML server:
-- waits for the optimizer's hint, hovers an expression, applies the
-- "Apply cheaper rewrite" code action, and prints what it saw.
local function out(s) io.stdout:write(s .. "\n") end
local server = os.getenv('DML_SERVER')
local file = os.getenv('DML_FILE')
local hover_line = tonumber(os.getenv('DML_HOVER_LINE'))
local hover_char = tonumber(os.getenv('DML_HOVER_CHAR'))
local fix_line = tonumber(os.getenv('DML_FIX_LINE'))
local id = vim.lsp.start_client({ name = 'dml', cmd = { 'node', server, '--stdio' }, root_dir = vim.fn.fnamemodify(file, ':h'),
  -- A budget the node limit ends first: the hints do not depend on this machine's speed.
  init_options = { optimizer = { budgetMs = 10000 } } })
vim.cmd('edit ' .. file)
vim.bo.filetype = 'dml'
vim.lsp.buf_attach_client(0, id)
local function hints()
  local n = 0
  for _, d in ipairs(vim.diagnostic.get(0)) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    if code == 'cheaper-rewrite' then n = n + 1 end
  end
  return n
end
local ok = vim.wait(60000, function() return hints() >= 5 end, 50)
out('HINTS ' .. tostring(ok) .. ' ' .. hints())
for _, d in ipairs(vim.diagnostic.get(0)) do out(string.format('DIAG %d %s', d.lnum, d.message)) end
local hp = { textDocument = { uri = vim.uri_from_bufnr(0) }, position = { line = hover_line, character = hover_char } }
for _, r in pairs(vim.lsp.buf_request_sync(0, 'textDocument/hover', hp, 10000) or {}) do
  local contents = r.result and r.result.contents
  out('HOVER ' .. string.gsub((contents and contents.value) or '', '\n', ' '))
end
local cp = { textDocument = { uri = vim.uri_from_bufnr(0) },
  range = { start = { line = fix_line, character = 0 }, ['end'] = { line = fix_line, character = 1 } },
  context = { diagnostics = {} } }
for _, r in pairs(vim.lsp.buf_request_sync(0, 'textDocument/codeAction', cp, 10000) or {}) do
  for _, a in ipairs(r.result or {}) do
    out('ACTION ' .. a.title)
    if a.edit then vim.lsp.util.apply_workspace_edit(a.edit, 'utf-16') end
  end
end
out('LINE ' .. vim.api.nvim_buf_get_lines(0, fix_line, fix_line + 1, false)[1])
vim.lsp.stop_client(id)
vim.cmd('qa!')
