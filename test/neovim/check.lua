-- The order-document language server in Neovim, headless. Works on Neovim 0.7 (Debian 12's
-- package), where vim.lsp.start (0.8+) does not exist yet: start_client + buf_attach_client is what
-- vim.lsp.start does underneath. Prints the diagnostics, a hover, the quick fixes and a completion.
--
--   T=$(mktemp -d); cp test/neovim/order.spotorder.json "$T/"
--   node dist/sandbox-cli.js --port 8765 --no-sim --state-dir "$T/sb" &     # public symbol rules
--   SPOTDESK=$PWD DOC=$T/order.spotorder.json OUT=$T/result.txt \
--     nvim --headless -u NONE -c 'luafile test/neovim/check.lua'; cat "$T/result.txt"
--
-- DOC must hold the order of test/neovim/order.spotorder.json (its positions are used below).
vim.filetype.add({ pattern = { ['.*%.spotorder%.json'] = 'spotorder' } })
local out = {}
local function log(s) table.insert(out, s) end
vim.cmd('edit ' .. os.getenv('DOC'))
local buf = vim.api.nvim_get_current_buf()
local id = vim.lsp.start_client({
  name = 'spotorder',
  cmd = { 'node', os.getenv('SPOTDESK') .. '/dist/spotorder-language-server.js', '--stdio' },
  root_dir = vim.fn.fnamemodify(os.getenv('DOC'), ':h'),
  init_options = { baseUrl = os.getenv('BASE_URL') or 'http://127.0.0.1:8765' },
})
vim.lsp.buf_attach_client(buf, id)
local ok = vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 100)
log('diagnostics arrived: ' .. tostring(ok))
for _, d in ipairs(vim.diagnostic.get(buf)) do
  log(string.format('diag %d:%d-%d %s', d.lnum + 1, d.col + 1, d.end_col + 1, d.message))
end
local client = vim.lsp.get_client_by_id(id)
local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 2, character = 14 } }
local r = client.request_sync('textDocument/hover', params, 10000, buf)
if r and r.result then
  local v = r.result.contents.value or vim.inspect(r.result.contents)
  log('hover on symbol: ' .. v:gsub('\n', ' | '):sub(1, 300))
end
local ca = client.request_sync('textDocument/codeAction', { textDocument = { uri = vim.uri_from_bufnr(buf) }, range = { start = { line = 5, character = 11 }, ['end'] = { line = 5, character = 21 } }, context = { diagnostics = vim.tbl_map(function(d) return d.user_data and d.user_data.lsp or d end, vim.diagnostic.get(buf)) } }, 10000, buf)
if ca and ca.result then for _, a in ipairs(ca.result) do log('code action: ' .. a.title) end end
local cp = client.request_sync('textDocument/completion', { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 3, character = 11 } }, 10000, buf)
if cp and cp.result then
  local items = cp.result.items or cp.result
  local labels = {}
  for i, it in ipairs(items) do if i <= 6 then table.insert(labels, it.label) end end
  log('completion at "side": ' .. table.concat(labels, ', '))
end
vim.fn.writefile(out, os.getenv('OUT'))
vim.cmd('qa!')
