-- End-to-end test of the Neovim 0.11+ path: vim.lsp.enable("highlight-ls") with no setup(),
-- filetype detection on, as a user's init.lua would have it.
--
--   HIGHLIGHT_LS=/path/to/highlight-ls nvim --headless -i NONE \
--     -u editors/neovim/test/minimal_init.lua -c 'luafile editors/neovim/test/enable_test.lua'
--
-- minimal_init.lua puts the plugin on the runtimepath, the server on PATH and calls
-- vim.lsp.enable("highlight-ls"); nothing else configures the plugin until the semantic-token
-- part below. Checks: decorations at byte columns in files with and without a filetype, one
-- client per root (with a root marker, in the current directory without one, and in a folder
-- outside it without one), the colour scheme links, toggles with semantic tokens,
-- `@lsp.type.<rule>` extmarks at the right columns, :help, :checkhealth highlight-ls, a
-- clean :checkhealth vim.deprecated, no warning or error in :messages or the LSP log, the
-- message for a missing binary, and a clean shutdown. Exits 0 when every check passes.

local api = vim.api
local T = dofile("editors/neovim/test/support.lua")
local say, check, all_clients, write_file = T.say, T.check, T.all_clients, T.write_file
local timeout_ms = tonumber(os.getenv("HIGHLIGHT_LS_TEST_TIMEOUT_MS") or "") or 15000

local function finish()
  T.finish("neovim 0.11 enable", false)
end

if vim.fn.has("nvim-0.11") ~= 1 then
  check(false, "this test needs Neovim 0.11 or later")
  finish()
  return
end

-- The test runs once Neovim has started (after VimEnter), as a user's session would: before
-- that, vim.lsp.enable leaves buffers already open to their next FileType.
local function main()

  local function read_file(path)
    local file = io.open(path, "rb")
    if not file then
      return ""
    end
    local text = file:read("*a")
    file:close()
    return text
  end

  -- What the LSP log held before the test, so that only this run's lines are read.
  local log_path = vim.lsp.get_log_path()
  local log_start = #read_file(log_path)

  local plugin = require("highlight-ls")

  -- The extmarks of one namespace as "line:start-end:group" strings, in order.
  local function marks_of(bufnr, namespace, group_pattern)
    local list = {}
    for _, mark in ipairs(api.nvim_buf_get_extmarks(bufnr, namespace, 0, -1, { details = true })) do
      local details = mark[4] or {}
      local group = details.hl_group or ""
      if group_pattern then
        group = group:match(group_pattern)
      end
      if group then
        list[#list + 1] = string.format("%d:%d-%d:%s", mark[2], mark[3], details.end_col or -1, group)
      end
    end
    table.sort(list)
    return table.concat(list, " ")
  end

  local function decorations(bufnr)
    return marks_of(bufnr, plugin.namespace)
  end

  -- Semantic-token extmarks, by their `@lsp.type.<rule>` group: Neovim draws a token with the
  -- filetype's group (`@lsp.type.todo.python`), which falls back to `@lsp.type.todo`.
  -- Semantic tokens are drawn when a window showing the buffer is redrawn, so redraw first.
  local function token_marks(bufnr)
    vim.cmd("redraw!")
    return marks_of(bufnr, -1, "^(@lsp%.type%.[%w_-]+)")
  end

  local function wait_for(what, expected, actual)
    local arrived = vim.wait(timeout_ms, function()
      return actual() == expected
    end, 20)
    check(arrived, string.format("%s\n  expected %s\n  got      %s", what, expected, actual()))
  end

  -- The byte range of `text` in a line, as "line:start-end:group".
  local function mark(line_number, line, text, group, occurrence)
    local from = 1
    local start
    for _ = 1, occurrence or 1 do
      start = line:find(text, from, true)
      from = start + 1
    end
    return string.format("%d:%d-%d:%s", line_number, start - 1, start - 1 + #text, group)
  end

  local function joined(list)
    table.sort(list)
    return table.concat(list, " ")
  end

  local function clients()
    return vim.lsp.get_clients({ name = "highlight-ls" })
  end

  local function open(path)
    vim.cmd("edit " .. vim.fn.fnameescape(path))
    return api.nvim_get_current_buf()
  end

  local function client_of(bufnr)
    local attached = vim.lsp.get_clients({ bufnr = bufnr, name = "highlight-ls" })
    return attached[1], #attached
  end

  local function wait_attached(bufnr, what)
    local arrived = vim.wait(timeout_ms, function()
      return client_of(bufnr) ~= nil
    end, 20)
    check(arrived, what .. ": a highlight-ls client attaches")
    local client, count = client_of(bufnr)
    check(count == 1, what .. ": exactly one highlight-ls client is attached (" .. count .. ")")
    return client
  end

  -- A workspace with a root marker (.highlights.json) and three files: a filetype, another
  -- filetype, and none. ---------------------------------------------------------------------
  local workspace = vim.fn.resolve(vim.fn.tempname())
  vim.fn.mkdir(workspace .. "/sub", "p")
  write_file(workspace .. "/.highlights.json", [[
  {
    // Comments and trailing commas are allowed.
    "rules": [
      { "name": "ticket", "regex": "\\b[A-Z]{2,}-[0-9]+\\b", "style": { "color": "#3b82f6", "underline": true } },
    ],
  }
  ]])
  local python_line = "x = 1  # TODO ABC-123 👍 ZZ-42 café"
  write_file(workspace .. "/sub/a.py", python_line .. "\n")
  write_file(workspace .. "/b.md", "# Notes\n\nFIXME see XY-7\n")
  write_file(workspace .. "/notes.zzz", "TODO QQ-1\n")

  local python = open(workspace .. "/sub/a.py")
  check(vim.bo[python].filetype == "python", "filetype detection is on (a.py is " .. vim.bo[python].filetype .. ")")
  local client = wait_attached(python, "a.py")
  check(client and client.config.root_dir == workspace, "a.py: the root is the folder with .highlights.json (" .. tostring(client and client.config.root_dir) .. ")")
  local expected_python = joined({
    mark(0, python_line, "TODO", "HighlightLsTodo"),
    mark(0, python_line, "ABC-123", "HighlightLsTicket"),
    mark(0, python_line, "ZZ-42", "HighlightLsTicket"),
  })
  wait_for("a.py: decorations at byte columns", expected_python, function()
    return decorations(python)
  end)

  -- By default every style is drawn as the server sends it: TODO is the amber label, as
  -- `highlight-ls print` shows it, under the default colour scheme; the user's style is exact.
  local todo = api.nvim_get_hl(0, { name = "HighlightLsTodo", link = false })
  check(todo.fg == 0x1a1a1a and todo.bg == 0xf9a825 and todo.bold == true, "HighlightLsTodo is the amber label: " .. vim.inspect(todo))
  local ticket = api.nvim_get_hl(0, { name = "HighlightLsTicket", link = false })
  check(ticket.fg == 0x3b82f6 and ticket.underline == true, "HighlightLsTicket has the user's colour: " .. vim.inspect(ticket))
  local token = api.nvim_get_hl(0, { name = "@lsp.type.todo", link = false })
  check(token.bg == 0xf9a825, "@lsp.type.todo is the amber label too: " .. vim.inspect(token))

  local markdown = open(workspace .. "/b.md")
  check(vim.bo[markdown].filetype == "markdown", "b.md is markdown (" .. vim.bo[markdown].filetype .. ")")
  local markdown_client = wait_attached(markdown, "b.md")
  check(markdown_client and client and markdown_client.id == client.id, "b.md shares a.py's client")
  wait_for("b.md: decorations", joined({ "2:0-5:HighlightLsFixme", "2:10-14:HighlightLsTicket" }), function()
    return decorations(markdown)
  end)

  local plain = open(workspace .. "/notes.zzz")
  check(vim.bo[plain].filetype == "", "notes.zzz has no filetype (" .. vim.bo[plain].filetype .. ")")
  local plain_client = wait_attached(plain, "notes.zzz (no filetype)")
  check(plain_client and client and plain_client.id == client.id, "a buffer without a filetype shares the root's client")
  wait_for("notes.zzz: decorations", joined({ "0:0-4:HighlightLsTodo", "0:5-9:HighlightLsTicket" }), function()
    return decorations(plain)
  end)
  check(#clients() == 1, "one client for one root (" .. #clients() .. ")")

  -- No root marker: a folder outside the current directory is its own root; inside the
  -- current directory, the current directory is. One client each, whatever the filetype. ----
  local outside = vim.fn.resolve(vim.fn.tempname())
  vim.fn.mkdir(outside, "p")
  write_file(outside .. "/c.py", "# HACK\n")
  write_file(outside .. "/d.zzz", "NOTE\n")
  local outside_python = open(outside .. "/c.py")
  local outside_client = wait_attached(outside_python, "c.py (no marker)")
  local outside_plain = open(outside .. "/d.zzz")
  local outside_plain_client = wait_attached(outside_plain, "d.zzz (no marker, no filetype)")
  check(outside_client and outside_client.config.root_dir == outside, "no marker, outside the cwd: the root is the file's folder (" .. tostring(outside_client and outside_client.config.root_dir) .. ")")
  check(outside_client and outside_plain_client and outside_client.id == outside_plain_client.id, "no marker: one client for the folder, with and without a filetype")
  wait_for("d.zzz: decorations", "0:0-4:HighlightLsNote", function()
    return decorations(outside_plain)
  end)

  local cwd_root = vim.fn.resolve(vim.fn.tempname())
  vim.fn.mkdir(cwd_root .. "/deeper", "p")
  write_file(cwd_root .. "/deeper/e.lua", "-- REVIEW\n")
  write_file(cwd_root .. "/f.zzz", "DEPRECATED\n")
  vim.cmd("cd " .. vim.fn.fnameescape(cwd_root))
  local nested = open(cwd_root .. "/deeper/e.lua")
  local nested_client = wait_attached(nested, "deeper/e.lua (no marker, in the cwd)")
  local top = open(cwd_root .. "/f.zzz")
  local top_client = wait_attached(top, "f.zzz (no marker, in the cwd)")
  check(nested_client and nested_client.config.root_dir == cwd_root, "no marker, inside the cwd: the root is the cwd (" .. tostring(nested_client and nested_client.config.root_dir) .. ")")
  check(nested_client and top_client and nested_client.id == top_client.id, "no marker, inside the cwd: one client")
  check(#clients() == 3, "three roots, three clients (" .. #clients() .. ")")

  -- Semantic tokens: setup() on 0.11 goes through vim.lsp.config + vim.lsp.enable. ----------
  vim.lsp.enable("highlight-ls", false)
  check(vim.wait(timeout_ms, function()
    return #clients() == 0
  end, 20), "vim.lsp.enable(name, false) stops every client")
  plugin.setup({ semantic_tokens = true })
  local token_client = wait_attached(python, "a.py after setup({ semantic_tokens = true })")
  check(token_client and token_client.server_capabilities.semanticTokensProvider ~= nil, "the server offers semantic tokens")
  vim.cmd("buffer " .. python)
  local expected_tokens = joined({
    mark(0, python_line, "TODO", "@lsp.type.todo"),
    mark(0, python_line, "ABC-123", "@lsp.type.ticket"),
    mark(0, python_line, "ZZ-42", "@lsp.type.ticket"),
  })
  wait_for("a.py: @lsp.type.<rule> extmarks at byte columns", expected_tokens, function()
    return token_marks(python)
  end)
  wait_for("a.py: decorations with semantic tokens on", expected_python, function()
    return decorations(python)
  end)

  -- Turning a buffer off removes both kinds of highlight; on again brings both back.
  plugin.disable(python)
  check(decorations(python) == "" and token_marks(python) == "", "disable(buffer) removes decorations and semantic tokens")
  plugin.enable(python)
  wait_for("enable(buffer): semantic tokens again", expected_tokens, function()
    return token_marks(python)
  end)
  wait_for("enable(buffer): decorations again", expected_python, function()
    return decorations(python)
  end)

  -- An edit moves both.
  api.nvim_buf_set_lines(python, 0, 0, false, { "# FIXME" })
  local edited = joined({
    "0:2-7:@lsp.type.fixme",
    mark(1, python_line, "TODO", "@lsp.type.todo"),
    mark(1, python_line, "ABC-123", "@lsp.type.ticket"),
    mark(1, python_line, "ZZ-42", "@lsp.type.ticket"),
  })
  wait_for("after an edit: semantic tokens", edited, function()
    return token_marks(python)
  end)

  -- :help highlight-ls with no :helptags: the plugin tagged a copy of its help file under
  -- stdpath("data"), and wrote nothing into its own folder. ---------------------------------
  local plugin_doc = vim.fn.fnamemodify(api.nvim_get_runtime_file("lua/highlight-ls/init.lua", false)[1], ":h:h:h") .. "/doc"
  check(vim.fn.filereadable(plugin_doc .. "/tags") == 0, "no tags file in the plugin's folder " .. plugin_doc)
  check(vim.fn.filereadable(vim.fn.stdpath("data") .. "/highlight-ls/doc/tags") == 1, "tags under stdpath('data')/highlight-ls/doc")
  local opened = pcall(vim.cmd, "help highlight-ls-enable")
  check(opened and vim.bo.filetype == "help" and api.nvim_get_current_line():find("*highlight-ls-enable*", 1, true) ~= nil,
    ":help highlight-ls-enable opens the plugin's help")
  if opened then
    vim.cmd("close")
  end

  -- :checkhealth highlight-ls and vim.deprecated. -------------------------------------------
  local function health(name)
    local tabs = vim.fn.tabpagenr("$")
    local ok = pcall(vim.cmd, "silent checkhealth " .. name)
    local text = table.concat(api.nvim_buf_get_lines(0, 0, -1, false), "\n")
    if vim.fn.tabpagenr("$") > tabs then
      vim.cmd("tabclose")
    end
    check(ok, ":checkhealth " .. name .. " runs")
    return text
  end
  local report = health("highlight-ls")
  local version = (vim.split(vim.fn.system({ "highlight-ls", "--version" }), "\n", { trimempty = true })[1] or ""):match("^highlight%-ls%s+(%S+)")
  check(version ~= nil, "highlight-ls --version prints a version")
  check(report:find("binary: " .. vim.fn.exepath("highlight-ls"), 1, true) ~= nil, "the health report names the binary:\n" .. report)
  check(report:find("version: " .. tostring(version), 1, true) ~= nil, "the health report gives the version " .. tostring(version))
  check(report:find('vim.lsp.enable("highlight-ls") has been called', 1, true) ~= nil, "the health report sees vim.lsp.enable")
  check(report:find("ERROR", 1, true) == nil and report:find("WARNING", 1, true) == nil, "the health report has no error or warning")
  local deprecated = health("vim.deprecated")
  check(deprecated:find("No deprecated functions detected", 1, true) ~= nil, ":checkhealth vim.deprecated is clean:\n" .. deprecated)

  -- Nothing deprecated or wrong in :messages or the LSP log. -------------------------------
  local messages = vim.fn.execute("messages")
  check(messages:lower():find("deprecat", 1, true) == nil, ":messages has no deprecation warning:\n" .. messages)
  check(messages:find("E%d+:") == nil and messages:find("[Ee]rror") == nil, ":messages has no error:\n" .. messages)
  local log = read_file(log_path):sub(log_start + 1)
  check(log:find("[ERROR]", 1, true) == nil and log:find("[WARN]", 1, true) == nil, "the LSP log has no warning or error:\n" .. log)

  -- A missing binary: the message names it and the fix, once. ---------------------------------
  local notified = {}
  local original_notify = vim.notify
  vim.notify = function(message, level)
    notified[#notified + 1] = { message = message, level = level }
  end
  vim.lsp.config("highlight-ls", { cmd = { "/nonexistent/highlight-ls" } })
  local lost = vim.fn.resolve(vim.fn.tempname())
  vim.fn.mkdir(lost, "p")
  write_file(lost .. "/g.py", "# TODO\n")
  write_file(lost .. "/h.py", "# TODO\n")
  open(lost .. "/g.py")
  vim.wait(timeout_ms, function()
    return #notified > 0
  end, 20)
  open(lost .. "/h.py")
  -- The second buffer's check is scheduled on BufReadPost; a callback scheduled after it
  -- runs after it, so once that ran, the check has (and must have stayed silent).
  local checked = false
  vim.schedule(function()
    checked = true
  end)
  vim.wait(timeout_ms, function()
    return checked
  end, 20)
  vim.notify = original_notify
  check(#notified == 1, "a missing binary is reported once (" .. #notified .. " messages)")
  if notified[1] then
    check(notified[1].level == vim.log.levels.ERROR and notified[1].message:find("/nonexistent/highlight-ls", 1, true) ~= nil
      and notified[1].message:find('vim.lsp.config("highlight-ls"', 1, true) ~= nil, "the message names the binary and the fix: " .. notified[1].message)
  end
  check(#vim.lsp.get_clients({ bufnr = api.nvim_get_current_buf(), name = "highlight-ls" }) == 0, "no client for a missing binary")
  report = health("highlight-ls")
  check(report:find("ERROR", 1, true) ~= nil and report:find("/nonexistent/highlight-ls", 1, true) ~= nil, "the health report flags the missing binary")

  -- Clean shutdown. ------------------------------------------------------------------------
  local running = clients()
  check(#running == 3, "three clients are running before shutdown (" .. #running .. ")")
  local exits_before = #plugin.exits
  for _, each in ipairs(running) do
    each:stop()
  end
  check(vim.wait(timeout_ms, function()
    return #clients() == 0 and #plugin.exits == exits_before + #running
  end, 20), "every client stops (" .. #clients() .. " left)")
  for index = 1, #plugin.exits do
    local exit = plugin.exits[index]
    check(exit.code == 0 and exit.signal == 0, string.format("server of client %s exited with code %s, signal %s", tostring(exit.client_id), tostring(exit.code), tostring(exit.signal)))
  end
  finish()
end

if vim.v.vim_did_enter == 1 then
  main()
else
  api.nvim_create_autocmd("VimEnter", {
    once = true,
    callback = function()
      vim.schedule(main)
    end,
  })
end
