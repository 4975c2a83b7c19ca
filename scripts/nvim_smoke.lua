-- A smoke run of pypto-lsp in a real editor, headless Neovim (Debian's 0.7 has no vim.lsp.start:
-- vim.lsp.start_client is the same thing there). Run in a folder of kernels:
--   nvim --headless -u NONE -c "luafile /path/to/scripts/nvim_smoke.lua" l2_norm_bad.py
-- It prints the diagnostics, a hover, the code actions, then edits the buffer without saving and
-- prints the diagnostics again; it exits 1 when the server does not answer.
local function out(line) io.stdout:write(line .. "\n") end
local function fail(why) out("FAILED: " .. why); vim.cmd("cquit 1") end

local client = vim.lsp.start_client({ name = "pypto-lsp", cmd = { "pypto-lsp" }, root_dir = vim.fn.getcwd() })
if not client then fail("pypto-lsp did not start") end
vim.lsp.buf_attach_client(0, client)
local function diagnostics() return vim.diagnostic.get(0) end
if not vim.wait(120000, function() return #diagnostics() > 0 end, 100) then fail("no diagnostics") end
for _, d in ipairs(diagnostics()) do
  out(string.format("diagnostic %d:%d %s: %s", d.lnum + 1, d.col + 1, d.user_data and d.user_data.lsp.code or "?",
    vim.split(d.message, "\n")[1]))
end

local uri = vim.uri_from_bufnr(0)
local line = vim.fn.search("= x\\.abs()", "n") - 1
local hover = vim.lsp.buf_request_sync(0, "textDocument/hover",
  { textDocument = { uri = uri }, position = { line = line, character = 4 } }, 30000)
if not hover or not hover[client] or not hover[client].result then fail("no hover") end
out("hover: " .. hover[client].result.contents.value:gsub("\n\n", " | "))

local function as_lsp(d)  -- back to the protocol's form (0.7 keeps only the extra fields in user_data)
  return { range = { start = { line = d.lnum, character = d.col }, ["end"] = { line = d.end_lnum,
    character = d.end_col } }, message = d.message, severity = d.severity, source = d.source,
    code = d.user_data.lsp.code }
end
local lsp_diags = vim.tbl_map(as_lsp, diagnostics())
local actions = vim.lsp.buf_request_sync(0, "textDocument/codeAction", {
  textDocument = { uri = uri }, range = lsp_diags[1].range, context = { diagnostics = { lsp_diags[1] } } }, 60000)
for _, a in ipairs(actions and actions[client] and actions[client].result or {}) do out("code action: " .. a.title) end

local before = #diagnostics()
vim.api.nvim_buf_set_lines(0, line, line + 1, false, { "    mag = pypto.abs(x)" })  -- not saved
if not vim.wait(60000, function() return #diagnostics() < before end, 100) then fail("no new diagnostics") end
out(string.format("after an unsaved edit: %d diagnostic(s), buffer modified: %s", #diagnostics(),
  tostring(vim.bo.modified)))
vim.lsp.stop_client(client)
vim.cmd("qa!")
