-- Headless end-to-end test of the Neovim plugin against a real highlight-ls.
--
--   HIGHLIGHT_LS=/path/to/highlight-ls nvim --headless -u NONE -i NONE \
--     --cmd 'set rtp^=editors/neovim' -c 'luafile editors/neovim/test/decorations_test.lua'
--
-- Opens a file in a fresh workspace with a .highlights.json, waits (bounded) for the extmarks
-- the server's decorations produce, and checks their byte columns and highlight attributes;
-- then edits the buffer and checks again. Exits 0 when every check passes, 1 otherwise.

local api = vim.api
local T = dofile("editors/neovim/test/support.lua")
local say, check, all_clients, write_file = T.say, T.check, T.all_clients, T.write_file
local timeout_ms = tonumber(os.getenv("HIGHLIGHT_LS_TEST_TIMEOUT_MS") or "") or 15000

local function finish()
  T.finish("neovim", true)
end

-- The extmarks of our namespace as { line, start byte, end byte, group }, in order.
local function extmarks(bufnr)
  local ns = require("highlight-ls").namespace
  local marks = {}
  for _, mark in ipairs(api.nvim_buf_get_extmarks(bufnr, ns, 0, -1, { details = true })) do
    local details = mark[4] or {}
    marks[#marks + 1] = { mark[2], mark[3], details.end_col, details.hl_group }
  end
  table.sort(marks, function(a, b)
    if a[1] ~= b[1] then
      return a[1] < b[1]
    end
    return a[2] < b[2]
  end)
  return marks
end

local function describe(marks)
  local parts = {}
  for _, mark in ipairs(marks) do
    parts[#parts + 1] = string.format("{%s,%s,%s,%s}", tostring(mark[1]), tostring(mark[2]), tostring(mark[3]), tostring(mark[4]))
  end
  return "{" .. table.concat(parts, " ") .. "}"
end

local function wait_for_extmarks(bufnr, expected, what)
  local wanted = describe(expected)
  local arrived = vim.wait(timeout_ms, function()
    return describe(extmarks(bufnr)) == wanted
  end, 20)
  check(arrived, string.format("%s: extmarks\n  expected %s\n  got      %s", what, wanted, describe(extmarks(bufnr))))
end

-- A highlight group's attributes in the shape of nvim_get_hl_by_name (foreground, background,
-- special), read with nvim_get_hl where it exists (0.9+; the other is deprecated on 0.11).
local function group_attributes(group)
  if api.nvim_get_hl then
    local ok, attributes = pcall(api.nvim_get_hl, 0, { name = group, link = false })
    if not ok or type(attributes) ~= "table" or next(attributes) == nil then
      return false, "no such group"
    end
    attributes.foreground, attributes.background, attributes.special = attributes.fg, attributes.bg, attributes.sp
    return true, attributes
  end
  return pcall(api.nvim_get_hl_by_name, group, true)
end

-- Checks the attributes of a highlight group; colours as 0xrrggbb numbers.
local function check_group(group, expected)
  local ok, actual = group_attributes(group)
  if not check(ok, "highlight group " .. group .. " exists") then
    return
  end
  for _, key in ipairs({ "foreground", "background", "special", "bold", "italic", "underline", "strikethrough" }) do
    local want = expected[key]
    local got = actual[key]
    if key == "bold" or key == "italic" or key == "underline" or key == "strikethrough" then
      want = want or false
      got = got or false
    end
    check(want == got, string.format("%s.%s: expected %s, got %s", group, key, tostring(want), tostring(got)))
  end
end

local binary = T.server_binary()
if not binary then
  finish()
  return
end

T.dark_backdrop()

local workspace = T.workspace([[
{
  "rules": [
    { "name": "ticket", "regex": "\\b[A-Z]{2,}-[0-9]+\\b", "style": { "color": "#3b82f6", "underline": true } },
    { "name": "cafe", "words": ["café"], "caseSensitive": false, "wholeWord": true,
      "style": { "backgroundColor": "#ff000080", "italic": true, "borderColor": "#00ff00" } },
  ],
}
]])
local path = workspace .. "/sample.txt"
write_file(path, "TODO 👍 ABC-123 café\n")

local plugin = require("highlight-ls")
-- The default draws the built-in styles in their exact colours too (the amber TODO label that
-- `highlight-ls print` shows), so that the drawing of every style attribute is checked;
-- follow_theme = true, which links them to the colour scheme, is checked below.
plugin.setup({ cmd = { binary }, decorations = true })
vim.cmd("edit " .. vim.fn.fnameescape(path))
local bufnr = api.nvim_get_current_buf()

-- Byte columns:   T O D O ␠ 👍(4 bytes) ␠ A B C - 1 2 3 ␠ c a f é(2 bytes)
--                 0       4 5           9 10           17 18       23
wait_for_extmarks(bufnr, {
  { 0, 0, 4, "HighlightLsTodo" },
  { 0, 10, 17, "HighlightLsTicket" },
  { 0, 18, 23, "HighlightLsCafe" },
}, "after opening")

check_group("HighlightLsTodo", { foreground = 0x1a1a1a, background = 0xf9a825, bold = true })
check_group("HighlightLsTicket", { foreground = 0x3b82f6, underline = true })
-- #ff000080 over black is #800000; the border colour becomes the special colour.
check_group("HighlightLsCafe", { background = 0x800000, special = 0x00ff00, italic = true })

-- An edit: a new match in front (multi-byte text shifts every column) and a second line.
api.nvim_buf_set_lines(bufnr, 0, 1, false, { "FIXME ü TODO 👍 ABC-123 café", "  DEPRECATED ZZ-9" })
wait_for_extmarks(bufnr, {
  { 0, 0, 5, "HighlightLsFixme" },
  { 0, 9, 13, "HighlightLsTodo" },
  { 0, 19, 26, "HighlightLsTicket" },
  { 0, 27, 32, "HighlightLsCafe" },
  { 1, 2, 12, "HighlightLsDeprecated" },
  { 1, 13, 17, "HighlightLsTicket" },
}, "after an edit")
check_group("HighlightLsFixme", { foreground = 0xffffff, background = 0xd32f2f, bold = true })
check_group("HighlightLsDeprecated", { foreground = 0x9e9e9e, strikethrough = true })

-- An edit after the emoji on the same line, where UTF-8, UTF-16 and UTF-32 columns all differ.
api.nvim_buf_set_text(bufnr, 0, 19, 0, 19, { "XY-7 " })
local after_edits = {
  { 0, 0, 5, "HighlightLsFixme" },
  { 0, 9, 13, "HighlightLsTodo" },
  { 0, 19, 23, "HighlightLsTicket" },
  { 0, 24, 31, "HighlightLsTicket" },
  { 0, 32, 37, "HighlightLsCafe" },
  { 1, 2, 12, "HighlightLsDeprecated" },
  { 1, 13, 17, "HighlightLsTicket" },
}
wait_for_extmarks(bufnr, after_edits, "after an edit behind the emoji")

-- A notification for an older version than the buffer's is ignored.
local before = describe(extmarks(bufnr))
local drawn, reason = plugin.apply_decorations({
  textDocument = { uri = vim.uri_from_bufnr(bufnr), version = 0 },
  positionEncoding = "utf-8",
  styles = {},
  ranges = {},
})
check(drawn == nil and tostring(reason):match("^stale") ~= nil, "a stale notification is ignored (" .. tostring(reason) .. ")")
check(describe(extmarks(bufnr)) == before, "a stale notification leaves the extmarks alone")

-- UTF-16 columns (what a server that ignored our encoding would send) are converted to bytes.
local version = vim.lsp.util.buf_versions[bufnr]
plugin.apply_decorations({
  textDocument = { uri = vim.uri_from_bufnr(bufnr), version = version },
  positionEncoding = "utf-16",
  styles = { { rule = "ticket", color = "#3b82f6ff", underline = true } },
  -- "FIXME ü TODO 👍 XY-7 " is 21 UTF-16 units (the emoji is a surrogate pair); ABC-123 follows.
  ranges = { 0, 21, 28, 0 },
})
check(describe(extmarks(bufnr)) == describe({ { 0, 24, 31, "HighlightLsTicket" } }), "utf-16 columns become byte columns: " .. describe(extmarks(bufnr)))

-- The request gives the server's current state back.
plugin.refresh(bufnr)
wait_for_extmarks(bufnr, after_edits, "after highlight/decorations")

-- An empty ranges array clears the buffer.
plugin.apply_decorations({
  textDocument = { uri = vim.uri_from_bufnr(bufnr), version = version },
  positionEncoding = "utf-8",
  styles = {},
  ranges = {},
})
check(#extmarks(bufnr) == 0, "empty ranges clear the decorations")

-- Turning highlighting off and on: one buffer, the current one, everywhere. -----------------
plugin.refresh(bufnr)
wait_for_extmarks(bufnr, after_edits, "before turning highlighting off")
plugin.disable(bufnr)
check(not plugin.is_enabled(bufnr) and plugin.is_enabled(nil), "disable(buffer) turns off that buffer only")
check(#extmarks(bufnr) == 0, "disable(buffer) removes the buffer's extmarks")
local ignored, why = plugin.apply_decorations({
  textDocument = { uri = vim.uri_from_bufnr(bufnr), version = vim.lsp.util.buf_versions[bufnr] },
  positionEncoding = "utf-8",
  styles = { { rule = "ticket", color = "#3b82f6ff", underline = true } },
  ranges = { 0, 19, 23, 0 },
})
check(ignored == nil and why == "disabled" and #extmarks(bufnr) == 0, "a disabled buffer draws no decorations (" .. tostring(why) .. ")")
plugin.enable(bufnr)
wait_for_extmarks(bufnr, after_edits, "enable(buffer) draws again")

-- The commands, from plugin/ (which -u NONE does not load).
vim.cmd("runtime plugin/highlight-ls.lua")
check(vim.fn.exists(":HighlightLsToggle") == 2, ":HighlightLsToggle exists")
vim.cmd("HighlightLsToggle")
check(not plugin.is_enabled(bufnr) and #extmarks(bufnr) == 0, ":HighlightLsToggle turns the current buffer off")
vim.cmd("HighlightLsToggle")
wait_for_extmarks(bufnr, after_edits, ":HighlightLsToggle turns it on again")
vim.cmd("HighlightLsDisable!")
check(not plugin.is_enabled(nil) and not plugin.is_enabled(bufnr) and #extmarks(bufnr) == 0, ":HighlightLsDisable! turns highlighting off everywhere")
vim.cmd("HighlightLsEnable")
check(plugin.is_enabled(bufnr) and not plugin.is_enabled(nil), ":HighlightLsEnable turns one buffer on while the rest stays off")
wait_for_extmarks(bufnr, after_edits, ":HighlightLsEnable draws the buffer")
vim.cmd("HighlightLsToggle!")
check(plugin.is_enabled(nil) and plugin.is_enabled(bufnr), ":HighlightLsToggle! flips the global switch (off -> on)")
vim.cmd("HighlightLsDisable")
vim.cmd("HighlightLsToggle!")
check(not plugin.is_enabled(nil) and not plugin.is_enabled(bufnr), ":HighlightLsToggle! turns everything off")
vim.cmd("HighlightLsToggle!")
check(plugin.is_enabled(nil) and plugin.is_enabled(bufnr), ":HighlightLsToggle! turns everything on, the buffer's own switch dropped")
wait_for_extmarks(bufnr, after_edits, ":HighlightLsToggle! draws again")

-- Colours that follow the theme (follow_theme = true): built-in styles link to the colour
-- scheme's groups, a style of the user's own stays exact, and both survive :colorscheme.
local function resolves_to(group, target)
  return vim.fn.synIDtrans(vim.fn.hlID(group)) == vim.fn.hlID(target)
end
local function check_theme_links(when)
  check(resolves_to("HighlightLsTodo", "Todo"), when .. ": HighlightLsTodo follows Todo")
  check(resolves_to("HighlightLsFixme", "DiagnosticError"), when .. ": HighlightLsFixme follows DiagnosticError")
  local deprecated = vim.fn.hlexists("DiagnosticDeprecated") == 1 and "DiagnosticDeprecated" or "Comment"
  check(resolves_to("HighlightLsDeprecated", deprecated), when .. ": HighlightLsDeprecated follows " .. deprecated)
  check(resolves_to("HighlightLsTicket", "HighlightLsTicket"), when .. ": HighlightLsTicket (the user's style) links to nothing")
  check_group("HighlightLsTicket", { foreground = 0x3b82f6, underline = true })
end
plugin.setup({ cmd = { binary }, follow_theme = true })
check_theme_links("after setup")
vim.cmd("colorscheme default")
check_theme_links("after :colorscheme")
wait_for_extmarks(bufnr, after_edits, "after the theme change")

-- A missing binary is reported once, with the fix.
local notified = {}
local original_notify = vim.notify
vim.notify = function(message, level)
  notified[#notified + 1] = { message = message, level = level }
end
local missing = { "/nonexistent/highlight-ls" }
local first, second = plugin.check_command(missing), plugin.check_command(missing)
vim.notify = original_notify
check(first == false and second == false, "a missing binary cannot start")
check(#notified == 1, "a missing binary is reported once (" .. #notified .. " messages)")
if notified[1] then
  check(notified[1].level == vim.log.levels.ERROR and notified[1].message:find("is not an executable", 1, true) ~= nil
    and notified[1].message:find("highlight-ls-install", 1, true) ~= nil, "the message says what is wrong and where the fix is: " .. notified[1].message)
end

-- :help highlight-ls, from a copy of the doc whose tags this test generates.
local docs = vim.fn.tempname()
vim.fn.mkdir(docs .. "/doc", "p")
local doc_source = vim.api.nvim_get_runtime_file("doc/highlight-ls.txt", false)[1]
check(doc_source ~= nil, "doc/highlight-ls.txt is on the runtimepath")
if doc_source then
  vim.fn.writefile(vim.fn.readfile(doc_source), docs .. "/doc/highlight-ls.txt")
  vim.opt.runtimepath:prepend(docs)
  local tagged, tag_error = pcall(vim.cmd, "helptags " .. vim.fn.fnameescape(docs .. "/doc"))
  check(tagged, "helptags runs without error (" .. tostring(tag_error) .. ")")
  for _, topic in ipairs({ "highlight-ls", "highlight-ls-install", ":HighlightLsToggle", "highlight-ls-colors" }) do
    local opened, help_error = pcall(vim.cmd, "help " .. topic)
    check(opened and vim.bo.buftype == "help" and api.nvim_buf_get_name(0):match("highlight%-ls%.txt$") ~= nil,
      ":help " .. topic .. " opens the plugin's help (" .. tostring(help_error) .. ")")
    if opened then
      check(api.nvim_get_current_line():find("*" .. topic .. "*", 1, true) ~= nil, ":help " .. topic .. " lands on its tag")
      vim.cmd("close")
    end
  end
end

-- :checkhealth highlight-ls names the binary and its version, and reports no error.
local function health_lines(name)
  local tabs = vim.fn.tabpagenr("$")
  local ok, problem = pcall(vim.cmd, "silent checkhealth " .. name)
  local lines = api.nvim_buf_get_lines(0, 0, -1, false)
  if vim.fn.tabpagenr("$") > tabs then
    vim.cmd("tabclose")
  end
  check(ok, ":checkhealth " .. name .. " runs (" .. tostring(problem) .. ")")
  return table.concat(lines, "\n")
end
local report = health_lines("highlight-ls")
local version_line = vim.split(vim.fn.system({ binary, "--version" }), "\n", { trimempty = true })[1] or "?"
check(report:find("binary: " .. vim.fn.exepath(binary), 1, true) ~= nil, "the health report names the binary:\n" .. report)
check(report:find("version: " .. (version_line:match("^highlight%-ls%s+(%S+)") or "?"), 1, true) ~= nil, "the health report gives " .. version_line)
check(report:find("ERROR", 1, true) == nil, "the health report has no error")
-- On 0.11 the command comes from vim.lsp.config, as vim.lsp.enable would run it.
local lsp_config = vim.fn.has("nvim-0.11") == 1 and vim.lsp.config ~= nil
if lsp_config then
  vim.lsp.config(plugin.options.name, { cmd = missing })
else
  plugin.options.cmd = missing
end
report = health_lines("highlight-ls")
check(report:find("ERROR", 1, true) ~= nil and report:find("/nonexistent/highlight-ls", 1, true) ~= nil, "the health report flags a missing binary")
if lsp_config then
  vim.lsp.config(plugin.options.name, { cmd = { binary } })
else
  plugin.options.cmd = { binary }
end

finish()
